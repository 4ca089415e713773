import { describe, expect, it } from 'vitest';
import { dailySeries, formatQuotaPercent, quotaRatio } from './usage-quota';

describe('usage against quota', () => {
  it('is the share of the included units, or nothing without a quota', () => {
    expect(quotaRatio({ usage: 4, pricing_free_units: 5 })).toBe(0.8);
    expect(quotaRatio({ usage: 4, pricing_free_units: 0 })).toBeNull();
  });

  it('never rounds up to the full quota', () => {
    expect(formatQuotaPercent(0.996)).toBe('99%');
    expect(formatQuotaPercent(1.721)).toBe('172%');
    expect(formatQuotaPercent(0.004)).toBe('<1%');
    expect(formatQuotaPercent(0)).toBe('0%');
  });

  it('lays one metric over the days, with gaps as zero', () => {
    const rows = [
      { date: '2026-11-08', metric: 'EGRESS', usage: 2 },
      { date: '2026-11-08', metric: 'STORAGE_SIZE', usage: 9 },
      { date: '2026-11-10', metric: 'EGRESS', usage: 3 },
    ];
    expect(dailySeries(rows, 'EGRESS', ['2026-11-08', '2026-11-09', '2026-11-10'])).toEqual([
      { day: '2026-11-08', usage: 2 },
      { day: '2026-11-09', usage: 0 },
      { day: '2026-11-10', usage: 3 },
    ]);
  });
});
