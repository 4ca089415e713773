import type { Cents } from '../money/cents.ts';
import * as Q from '../money/rational.ts';
import { roundHalfUp } from '../money/round.ts';
import type { PlanId } from '../organization/plans.ts';
import { isSpendCapOn } from './billing-plans.ts';
import { USAGE_METRIC_DEFINITIONS } from './metrics.ts';
import { QUOTA_DEFINITIONS, quotaFor, type Quota, type QuotaMetric } from './quotas.ts';
import { priceRational } from './unit-price.ts';

/** What the organization needs to know to measure per-project quotas. */
export interface QuotaContext {
  readonly projectCount: number;
  readonly cycleHours: Q.Rational;
  /**
   * The cycle's fraction of a month (`cycleFraction`): below 1 for a cycle a plan change cut short.
   * Absent: 1.
   */
  readonly cycleFraction?: Q.Rational;
}

/**
 * Whether a metric is billed per unit-month on its average over the cycle (database and storage size
 * in GB-months, disk IOPS and throughput per month): its usage and its quota count the cycle's
 * fraction of a month. Summed, distinct and peak metrics keep their whole quota in any cycle.
 */
export function isTimeIntegrated(metric: QuotaMetric): boolean {
  return USAGE_METRIC_DEFINITIONS[metric].aggregation === 'average';
}

/** The included amount in the metric's unit; 0 when the metric is not available on the plan. */
export function includedUnits(quota: Quota | null, context: QuotaContext): Q.Rational {
  if (quota === null) return Q.ZERO;
  const included = Q.rationalFromNumber(quota.included);
  const projects = Q.rational(context.projectCount);
  switch (quota.scope) {
    case 'organization':
      return included;
    case 'project':
      return Q.multiply(included, projects);
    case 'project_hour':
      return Q.multiply(Q.multiply(included, projects), context.cycleHours);
  }
}

/**
 * Whether usage beyond the quota is billed: never on free; for capped metrics only with the spend
 * cap off; metrics the spend cap does not cover (disk, log drain events) on every paid plan.
 */
export function isOverageBilled(
  planId: PlanId,
  usageBillingEnabled: boolean,
  metric: QuotaMetric,
): boolean {
  if (planId === 'free') return false;
  return !QUOTA_DEFINITIONS[metric].capped || !isSpendCapOn(planId, usageBillingEnabled);
}

export interface Overage {
  /**
   * The usage the line counts: the usage itself, or for a time-integrated metric its average × the
   * cycle's fraction of a month (GB-months).
   */
  readonly used: Q.Rational;
  /** The quota, counted the same way as `used`. */
  readonly included: Q.Rational;
  readonly overage: Q.Rational;
  /** The exact cost of the overage, before the line's one rounding. */
  readonly exactCents: Q.Rational;
  readonly billed: boolean;
  readonly cents: Cents;
}

export function overageOf(
  planId: PlanId,
  usageBillingEnabled: boolean,
  metric: QuotaMetric,
  usage: Q.Rational,
  context: QuotaContext,
): Overage {
  // A shortened cycle's GB-months: its average over its fraction of a month, against the quota over it.
  const fraction = isTimeIntegrated(metric) ? (context.cycleFraction ?? Q.ONE) : Q.ONE;
  const used = Q.multiply(usage, fraction);
  const included = Q.multiply(includedUnits(quotaFor(planId, metric), context), fraction);
  const overage = Q.max(Q.ZERO, Q.subtract(used, included));
  const exactCents = Q.multiply(overage, priceRational(QUOTA_DEFINITIONS[metric].price));
  const billed = isOverageBilled(planId, usageBillingEnabled, metric);
  return {
    used,
    included,
    overage,
    exactCents,
    billed,
    cents: billed ? roundHalfUp(exactCents) : 0,
  };
}
