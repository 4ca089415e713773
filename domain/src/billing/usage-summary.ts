import * as Q from '../money/rational.ts';
import type { PlanId } from '../organization/plans.ts';
import { exactQuantity, type BillingPeriod, type Quantity } from './invoice-input.ts';
import { isSpendCapOn } from './billing-plans.ts';
import { QUANTITY_DECIMALS } from './breakdown.ts';
import { isOverageBilled, overageOf, type QuotaContext } from './overage.ts';
import { overagePriceDescription } from './overage-lines.ts';
import { QUOTA_DEFINITIONS, QUOTA_METRICS, quotaFor, type QuotaMetric } from './quotas.ts';
import type { UsageRecord } from './schemas.ts';

export interface ProjectMetricUsage {
  readonly ref: string;
  readonly name: string;
  readonly metric: QuotaMetric;
  readonly usage: Quantity;
}

export interface UsageSummaryContext {
  /** Per-project quotas (disk) count these projects; defaults to the projects in `perProject`. */
  readonly projectCount?: number;
  /** Per-project-hour quotas (disk GB-hours) count the hours of this cycle; defaults to 30 days. */
  readonly period?: BillingPeriod;
}

const DEFAULT_CYCLE_HOURS = 30 * 24;
/** `usage` is shown to two decimals; `usage_original` keeps what an average of sizes has beyond them. */
const USAGE_ORIGINAL_DECIMALS = 6;

/**
 * The GET /usage records: for every metric with a quota, the cycle's usage, whether it is limited
 * (`capped`: the spend cap or the free plan stops it at the quota) or `unlimited` (usage beyond the
 * quota is billed instead), the included units and the overage cost so far.
 */
export function summarizeUsage(
  planId: PlanId,
  usageBillingEnabled: boolean,
  totals: Readonly<Partial<Record<QuotaMetric, Quantity>>>,
  perProject: readonly ProjectMetricUsage[],
  context: UsageSummaryContext = {},
): UsageRecord[] {
  const quotaContext: QuotaContext = {
    projectCount: context.projectCount ?? new Set(perProject.map((p) => p.ref)).size,
    cycleHours: context.period
      ? Q.rational(context.period.end - context.period.start, 3600)
      : Q.rational(DEFAULT_CYCLE_HOURS),
  };
  const capOn = isSpendCapOn(planId, usageBillingEnabled);
  return QUOTA_METRICS.map((metric) => {
    const usage = exactQuantity(totals[metric] ?? 0, `Usage of ${metric}`);
    const quota = quotaFor(planId, metric);
    const capped = QUOTA_DEFINITIONS[metric].capped && capOn;
    const result = overageOf(planId, usageBillingEnabled, metric, usage, quotaContext);
    return {
      metric,
      usage: Q.toNumber(usage, QUANTITY_DECIMALS),
      usage_original: Q.toNumber(usage, USAGE_ORIGINAL_DECIMALS),
      unlimited: !capped && isOverageBilled(planId, usageBillingEnabled, metric),
      capped,
      pricing_free_units: Q.toNumber(result.included, QUANTITY_DECIMALS),
      available_in_plan: quota !== null,
      cost: result.cents,
      // The free plan never bills overage, and a metric the plan lacks has none to bill.
      pricing_strategy:
        planId === 'free' || quota === null ? 'NONE' : QUOTA_DEFINITIONS[metric].priceUnit.strategy,
      unit_price_desc: overagePriceDescription(metric),
      project_allocations: perProject
        .filter((p) => p.metric === metric)
        .map((p) => ({
          ref: p.ref,
          name: p.name,
          usage: Q.toNumber(exactQuantity(p.usage, `Usage of ${metric}`), QUANTITY_DECIMALS),
        })),
    };
  });
}

type QuotaView = Pick<
  UsageRecord,
  'metric' | 'usage' | 'unlimited' | 'capped' | 'pricing_free_units'
>;

export const USAGE_WARNING_RATIO = 0.8;

/**
 * A usage warning starts at 80% of a quota above zero, whether usage past it is limited (spend cap on,
 * free plan) or billed (spend cap off): either way the organization is about to leave what it pays for.
 */
export function isOverWarningThreshold(record: QuotaView): boolean {
  if (record.pricing_free_units <= 0) return false;
  return record.usage >= record.pricing_free_units * USAGE_WARNING_RATIO;
}

/** Metrics left out of the restriction rule: gp3 disk hours are billed, never limited. */
export const RESTRICTION_EXEMPT_METRICS: readonly QuotaMetric[] = ['DISK_SIZE_GB_HOURS_GP3'];

/** Capped metrics whose usage exceeds the included units: what raises the exceeded-limits banner. */
export function exceededCappedMetrics(records: readonly QuotaView[]): QuotaMetric[] {
  return records
    .filter((r) => r.capped && !r.unlimited && r.usage > r.pricing_free_units)
    .map((r) => r.metric)
    .filter((metric) => !RESTRICTION_EXEMPT_METRICS.includes(metric));
}
