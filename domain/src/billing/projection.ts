import * as Q from '../money/rational.ts';
import type { BillingWindow } from './invoice-input.ts';
import { USAGE_METRIC_DEFINITIONS } from './metrics.ts';
import type { QuotaMetric } from './quotas.ts';

export const MIN_EXTRAPOLATION_SECONDS = 86_400;

/**
 * The window as it will stand at the end of the cycle if nothing changes: whatever is running keeps
 * running to the end; summed usage grows at the rate observed so far (linear in elapsed time);
 * averages, distinct counts and peaks are kept as they are. At asOf = period.end it is the window
 * itself, so the projection of the last moment is exactly the invoice that gets finalized.
 *
 * The rate is measured over at least the first day of the cycle: a minute of traffic just after the
 * cycle starts would otherwise be multiplied by 43,200 into a meaningless projection.
 */
export function projectToCycleEnd(window: BillingWindow): BillingWindow {
  const { start, end } = window.period;
  const remainingHours = Q.rational(end - window.asOf, 3600);
  const basis = Math.max(window.asOf - start, Math.min(end - start, MIN_EXTRAPOLATION_SECONDS));
  const growth = Q.rational(end - start, basis);
  const extrapolate = (metric: QuotaMetric, value: Q.Rational) =>
    USAGE_METRIC_DEFINITIONS[metric].aggregation === 'sum' ? Q.multiply(value, growth) : value;
  const extend = <T extends { hours: Q.Rational; running: boolean }>(entry: T): T =>
    entry.running ? { ...entry, hours: Q.add(entry.hours, remainingHours) } : entry;

  return {
    ...window,
    asOf: end,
    compute: window.compute.map(extend),
    addons: window.addons.map(extend),
    usage: new Map(
      [...window.usage].map(([metric, value]) => [metric, extrapolate(metric, value)]),
    ),
    usageByProject: window.usageByProject.map((entry) => ({
      ...entry,
      usage: extrapolate(entry.metric, entry.usage),
    })),
  };
}
