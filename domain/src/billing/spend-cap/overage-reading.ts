import type { Cents } from '../../money/cents.ts';
import * as Q from '../../money/rational.ts';
import type { PlanId } from '../../organization/plans.ts';
import { exactQuantity, type Quantity } from '../invoice-input.ts';
import { overageOf, type QuotaContext } from '../overage.ts';
import { QUOTA_DEFINITIONS, QUOTA_METRICS, type QuotaMetric } from '../quotas.ts';

/** The metrics the spend cap covers (pricing.md's "capped" column): all of them organization-wide. */
export const CAPPED_METRICS: readonly QuotaMetric[] = QUOTA_METRICS.filter(
  (metric) => QUOTA_DEFINITIONS[metric].capped,
);

/** Cents per capped metric; a metric left out counts as 0. */
export type CappedOverage = Readonly<Partial<Record<QuotaMetric, Cents>>>;

/**
 * The cycle's overage at one moment, as if the cap had been off all along: each capped metric's line
 * amount (rounded half up once, as the upcoming invoice rounds it) for the cycle's usage stamped
 * before `at`.
 */
export interface OverageReading {
  readonly at: number;
  readonly amounts: CappedOverage;
}

/**
 * A reading from the cycle's usage totals so far (the same totals the upcoming invoice takes), priced
 * by the catalogue with the spend cap off: what each capped overage line would show on a Pro
 * organization that never had the cap on. Capped quotas are per organization: the project count does
 * not move them; a cycle cut short by a plan change counts its sizes for its `cycleFraction` of a month
 * (product-decisions §15), as its own lines do. Free bills no overage, so its readings are all zero.
 */
export function cappedOverageReading(
  planId: PlanId,
  at: number,
  usage: Readonly<Partial<Record<QuotaMetric, Quantity>>>,
  cycleFraction: Q.Rational = Q.ONE,
): OverageReading {
  const context: QuotaContext = { projectCount: 0, cycleHours: Q.ZERO, cycleFraction };
  const amounts: Partial<Record<QuotaMetric, Cents>> = {};
  for (const metric of CAPPED_METRICS) {
    const value = usage[metric];
    if (value === undefined) continue;
    const exact = exactQuantity(value, `Usage of ${metric}`);
    const { cents } = overageOf(planId, true, metric, exact, context);
    if (cents !== 0) amounts[metric] = cents;
  }
  return { at, amounts };
}

export function amountOf(overage: CappedOverage, metric: QuotaMetric): Cents {
  return overage[metric] ?? 0;
}
