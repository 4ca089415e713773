import * as Q from '../money/rational.ts';
import type { BillingPeriod, BillingWindow } from './invoice-input.ts';
import { USAGE_METRIC_DEFINITIONS } from './metrics.ts';
import type { QuotaMetric } from './quotas.ts';

export const MIN_EXTRAPOLATION_SECONDS = 86_400;
const HOUR = 3600;

/**
 * The moment a projection is made from: `asOf` rounded up to the next whole hour of the cycle (never
 * past its end). Every reload within the same hour projects from the same moment, so the projected total
 * moves only when usage does, or once an hour; and the hours that remain are a whole number a person
 * can multiply by an hourly price.
 */
export function projectionBasis(period: BillingPeriod, asOf: number): number {
  if (asOf <= period.start) return period.start;
  const hours = Math.ceil((asOf - period.start) / HOUR);
  return Math.min(period.end, period.start + hours * HOUR);
}

/** How a window is projected to its cycle's end: from when, for how long, at which rate. */
export interface ProjectionBasis {
  /** Unix seconds: the whole hour the projection starts from. */
  readonly from: number;
  /** Whole hours from `from` to the cycle's end: what keeps running runs this long again. */
  readonly remainingHours: number;
  /** Whole hours the rate of summed usage is measured over: since the cycle began, at least a day. */
  readonly measuredHours: number;
  /**
   * Hours summed usage keeps its rate for: the cycle's hours after the measured ones. The hours that
   * remain, except in the first day, which counts as measured whole.
   */
  readonly usageHoursLeft: number;
}

export function projectionBasisOf(window: BillingWindow): ProjectionBasis {
  const { start, end } = window.period;
  const from = projectionBasis(window.period, window.asOf);
  const measured = Math.max(from - start, Math.min(end - start, MIN_EXTRAPOLATION_SECONDS));
  const measuredHours = Math.max(1, Math.round(measured / HOUR));
  return {
    from,
    remainingHours: Math.round((end - from) / HOUR),
    measuredHours,
    usageHoursLeft: Math.max(0, Math.round((end - start) / HOUR) - measuredHours),
  };
}

/**
 * The window as it will stand at the end of the cycle if nothing changes: whatever is running keeps
 * running for the cycle's remaining whole hours; summed usage grows at its daily rate so far (what
 * was used divided by the days measured); averages, distinct counts and peaks are kept as they are. At
 * asOf = period.end it is the window itself, so the projection of the last moment is exactly the
 * invoice that gets finalized.
 *
 * The rate is measured over at least the first day of the cycle: a minute of traffic just after the
 * cycle starts would otherwise be multiplied by 43,200 into a meaningless projection.
 */
export function projectToCycleEnd(window: BillingWindow): BillingWindow {
  const { end } = window.period;
  if (window.asOf >= end) return window;
  const basis = projectionBasisOf(window);
  const remainingHours = Q.rational(basis.remainingHours);
  // So far, plus the hourly rate so far for every hour that remains.
  const growth = Q.rational(basis.measuredHours + basis.usageHoursLeft, basis.measuredHours);
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
