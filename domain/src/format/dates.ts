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

/** Grace period end: "DD MMM, YYYY" in UTC, e.g. "26 Nov, 2026". */
export function formatGraceEnd(unixSeconds: number): string {
  const { day, month, year } = parts(unixSeconds);
  return `${day} ${month}, ${year}`;
}
