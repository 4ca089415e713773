import { describe, expect, it } from 'vitest';
import { cycleDayRange, daysBetween, formatDay, formatShortDay, toDay } from './billing-days';

describe('billing days', () => {
  it('turns a half-open cycle into inclusive days', () => {
    // 2026-11-09T00:00Z to 2026-12-09T00:00Z
    expect(cycleDayRange({ start: 1794182400, end: 1796774400 })).toEqual({
      start: '2026-11-09',
      end: '2026-12-08',
    });
  });

  it('lists every day once, across a month end', () => {
    const days = daysBetween('2026-11-28', '2026-12-02');
    expect(days).toEqual(['2026-11-28', '2026-11-29', '2026-11-30', '2026-12-01', '2026-12-02']);
    expect(daysBetween('2026-11-08', '2026-12-07')).toHaveLength(30);
  });

  it('formats days as the invoices do, in UTC', () => {
    expect(toDay(1794182400 + 86_399)).toBe('2026-11-09');
    expect(formatDay('2026-11-08')).toBe('Nov 08, 2026');
    expect(formatShortDay('2026-11-08')).toBe('Nov 08');
  });
});
