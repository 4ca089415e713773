import type { UsageRecord } from '@meterline/domain';

type QuotaView = Pick<UsageRecord, 'usage' | 'pricing_free_units'>;

/** Share of the included units used, 0.5 for half; null when the plan includes none. */
export function quotaRatio(record: QuotaView): number | null {
  if (record.pricing_free_units <= 0) return null;
  return Math.max(0, record.usage) / record.pricing_free_units;
}

/** "86%", rounded down so that 99.6% never reads as the full quota; "<1%" for a little. */
export function formatQuotaPercent(ratio: number): string {
  if (ratio > 0 && ratio < 0.01) return '<1%';
  return `${Math.floor(ratio * 100)}%`;
}

/** Per-day totals of one metric, in the order of `days`; missing days are 0. */
export function dailySeries(
  rows: readonly { date: string; metric: string; usage: number }[],
  metric: string,
  days: readonly string[],
): { day: string; usage: number }[] {
  const byDay = new Map<string, number>();
  for (const row of rows) {
    if (row.metric === metric) byDay.set(row.date, (byDay.get(row.date) ?? 0) + row.usage);
  }
  return days.map((day) => ({ day, usage: byDay.get(day) ?? 0 }));
}
