import { describe, expect, it } from 'vitest';
import { formatGraceEnd, formatInvoiceDate } from './dates.ts';

describe('date formats', () => {
  const nov1 = Date.UTC(2026, 10, 1, 23, 59) / 1000;

  it('formats invoice dates as MMM DD, YYYY in UTC', () => {
    expect(formatInvoiceDate(nov1)).toBe('Nov 01, 2026');
  });

  it('formats grace period ends as DD MMM, YYYY in UTC', () => {
    expect(formatGraceEnd(nov1)).toBe('01 Nov, 2026');
  });
});
