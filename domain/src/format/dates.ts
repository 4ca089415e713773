const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function parts(unixSeconds: number): { day: string; month: string; year: number } {
  const date = new Date(unixSeconds * 1000);
  return {
    day: String(date.getUTCDate()).padStart(2, '0'),
    month: MONTHS[date.getUTCMonth()] ?? '',
    year: date.getUTCFullYear(),
  };
}

/** Invoice dates: "MMM DD, YYYY" in UTC, e.g. "Nov 01, 2026". */
export function formatInvoiceDate(unixSeconds: number): string {
  const { day, month, year } = parts(unixSeconds);
  return `${month} ${day}, ${year}`;
}

/** A moment to the hour: "Nov 24, 2026, 15:00 UTC". */
export function formatInvoiceDateHour(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  const hour = String(date.getUTCHours()).padStart(2, '0');
  const minute = String(date.getUTCMinutes()).padStart(2, '0');
  return `${formatInvoiceDate(unixSeconds)}, ${hour}:${minute} UTC`;
}

/** Grace period end: "DD MMM, YYYY" in UTC, e.g. "26 Nov, 2026". */
export function formatGraceEnd(unixSeconds: number): string {
  const { day, month, year } = parts(unixSeconds);
  return `${day} ${month}, ${year}`;
}

/**
 * A period, everywhere one is written (invoice lines, emails, the PDF, the web app): both ends in the
 * invoice-date format, "Nov 01, 2026 – Dec 01, 2026", in UTC. Periods are half-open, so the end is
 * the next period's start, as the invoice's period_end is.
 */
export function formatPeriod(start: number, end: number): string {
  return `${formatInvoiceDate(start)} – ${formatInvoiceDate(end)}`;
}
