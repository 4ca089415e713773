import { formatInvoiceDate } from '@meterline/domain';

const DAY_SECONDS = 86_400;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Unix seconds to the UTC calendar day, YYYY-MM-DD (the format of /usage/daily). */
export function toDay(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().slice(0, 10);
}

/** YYYY-MM-DD to the unix seconds of its UTC midnight. */
export function dayToUnix(day: string): number {
  if (!DAY_PATTERN.test(day)) throw new RangeError(`Not a YYYY-MM-DD day: ${day}`);
  return Date.parse(`${day}T00:00:00Z`) / 1000;
}

/**
 * The days of a half-open billing period [start, end), inclusive at both ends as /usage/daily
 * takes them: a cycle from Nov 08 00:00 to Dec 08 00:00 is Nov 08 to Dec 07.
 */
export function cycleDayRange(period: { start: number; end: number }): {
  start: string;
  end: string;
} {
  return { start: toDay(period.start), end: toDay(Math.max(period.start, period.end - 1)) };
}

/** Every day from start to end, inclusive. */
export function daysBetween(start: string, end: string): string[] {
  const days: string[] = [];
  for (let at = dayToUnix(start); at <= dayToUnix(end); at += DAY_SECONDS) days.push(toDay(at));
  return days;
}

/** "Nov 08, 2026" for a YYYY-MM-DD day, in the invoices' date format. */
export function formatDay(day: string): string {
  return formatInvoiceDate(dayToUnix(day));
}

/** "Nov 08": the same without the year, for chart axes. */
export function formatShortDay(day: string): string {
  return formatDay(day).replace(/, \d{4}$/, '');
}
