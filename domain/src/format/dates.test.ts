import { describe, expect, it } from 'vitest';
import { formatGraceEnd, formatInvoiceDate, formatPeriod } from './dates.ts';

describe('date formats', () => {
  const nov1 = Date.UTC(2026, 10, 1, 23, 59) / 1000;

  it('formats invoice dates as MMM DD, YYYY in UTC', () => {
    expect(formatInvoiceDate(nov1)).toBe('Nov 01, 2026');
  });

  it('formats grace period ends as DD MMM, YYYY in UTC', () => {
    expect(formatGraceEnd(nov1)).toBe('01 Nov, 2026');
  });

  it('writes a period as its two ends in the invoice-date format', () => {
    const day = (y: number, m: number, d: number) => Date.UTC(y, m, d) / 1000;
    expect(formatPeriod(day(2026, 10, 1), day(2026, 11, 1))).toBe('Nov 01, 2026 – Dec 01, 2026');
    expect(formatPeriod(day(2026, 11, 15), day(2027, 0, 15))).toBe('Dec 15, 2026 – Jan 15, 2027');
  });
});
