import type { Cents } from '../money/cents.ts';
import { toCents } from '../money/cents.ts';
import { rational, rationalFromNumber, type Rational } from '../money/rational.ts';
import type { PlanId } from '../organization/plans.ts';
import type { ComputeSize } from '../organization/projects.ts';
import type { AddonMetric } from './addons.ts';
import type { ComputeMetric, ComputeSizeMetric } from './compute.ts';
import type { QuotaMetric } from './quotas.ts';

/** Hours or usage: a number as a person writes it, or an exact fraction (seconds / 3600). */
export type Quantity = number | Rational;

export interface BillingPeriod {
  /** Unix seconds, inclusive. */
  readonly start: number;
  /** Unix seconds, exclusive. */
  readonly end: number;
  /**
   * The end the cycle was scheduled to have, when a plan change cut it short at `end` (unix seconds,
   * not before `end`). Absent: the cycle ran to its scheduled end. The cycle's time-integrated
   * allowances scale with `end − start` over `scheduledEnd − start` (product-decisions §15).
   */
  readonly scheduledEnd?: number;
}

export interface InvoiceProject {
  readonly ref: string;
  readonly name: string;
  /** Informational: the compute entries carry the billed size. */
  readonly computeSize?: ComputeSize;
  /** Informational: the compute and add-on entries say what keeps running. */
  readonly running?: boolean;
}

export type ComputeKind = 'primary' | 'read_replica' | 'branch';

/** Hours accrued in the cycle by one compute resource, and whether it is still running now. */
export type ComputeHours =
  | {
      readonly projectRef: string;
      readonly kind: 'primary' | 'read_replica';
      readonly metric: ComputeSizeMetric;
      readonly hours: Quantity;
      readonly running: boolean;
    }
  | {
      readonly projectRef: string;
      readonly kind: 'branch';
      /** Branches are always billed as COMPUTE_HOURS_BRANCH, whatever their size. */
      readonly metric?: 'COMPUTE_HOURS_BRANCH';
      readonly hours: Quantity;
      readonly running: boolean;
    };

export interface AddonHours {
  readonly projectRef: string;
  readonly addon: AddonMetric;
  readonly hours: Quantity;
  readonly running: boolean;
}

export interface ProjectUsage {
  readonly projectRef: string;
  readonly metric: QuotaMetric;
  readonly usage: Quantity;
}

export interface UpcomingInvoiceInput {
  readonly planId: PlanId;
  /** False means the spend cap is on. */
  readonly usageBillingEnabled: boolean;
  readonly period: BillingPeriod;
  /** Now, in unix seconds; clamped to the period. */
  readonly asOf: number;
  /** In display order; the first project with phone MFA pays its first-project price. */
  readonly projects: readonly InvoiceProject[];
  readonly compute: readonly ComputeHours[];
  readonly addons: readonly AddonHours[];
  /** Organization totals of the cycle so far, aggregated per the metric, in its unit. */
  readonly usage: Readonly<Partial<Record<QuotaMetric, Quantity>>>;
  /** Optional per-project split of `usage`, for the breakdown of overage lines. */
  readonly usageByProject?: readonly ProjectUsage[];
  /** Enterprise terms; other plans use the catalogue. */
  readonly contract?: { readonly monthlyPriceCents: Cents; readonly computeCreditsCents: Cents };
}

/** The input with every quantity exact and the clock inside the period. */
export interface BillingWindow {
  readonly planId: PlanId;
  readonly usageBillingEnabled: boolean;
  readonly period: BillingPeriod;
  readonly asOf: number;
  readonly projects: readonly { readonly ref: string; readonly name: string }[];
  readonly compute: readonly ExactComputeHours[];
  readonly addons: readonly ExactAddonHours[];
  readonly usage: ReadonlyMap<QuotaMetric, Rational>;
  readonly usageByProject: readonly ExactProjectUsage[];
  readonly contract: {
    readonly monthlyPriceCents: Cents;
    readonly computeCreditsCents: Cents;
  } | null;
}

export interface ExactComputeHours {
  readonly projectRef: string;
  readonly kind: ComputeKind;
  readonly metric: ComputeMetric;
  readonly hours: Rational;
  readonly running: boolean;
}

export interface ExactAddonHours {
  readonly projectRef: string;
  readonly addon: AddonMetric;
  readonly hours: Rational;
  readonly running: boolean;
}

export interface ExactProjectUsage {
  readonly projectRef: string;
  readonly metric: QuotaMetric;
  readonly usage: Rational;
}

export function exactQuantity(quantity: Quantity, what: string): Rational {
  const value =
    typeof quantity === 'number'
      ? rationalFromNumber(quantity)
      : rational(quantity.num, quantity.den);
  if (value.num < 0n) throw new RangeError(`${what} must not be negative`);
  return value;
}

export function toBillingWindow(input: UpcomingInvoiceInput): BillingWindow {
  const { start, end, scheduledEnd } = input.period;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) {
    throw new RangeError('The billing period must be whole unix seconds with end after start');
  }
  if (scheduledEnd !== undefined && (!Number.isSafeInteger(scheduledEnd) || scheduledEnd < end)) {
    throw new RangeError("A cycle's scheduled end must be whole unix seconds, not before its end");
  }
  const usage = new Map<QuotaMetric, Rational>();
  for (const [metric, value] of Object.entries(input.usage) as [
    QuotaMetric,
    Quantity | undefined,
  ][]) {
    if (value !== undefined) usage.set(metric, exactQuantity(value, `Usage of ${metric}`));
  }
  return {
    planId: input.planId,
    usageBillingEnabled: input.usageBillingEnabled,
    period:
      scheduledEnd === undefined || scheduledEnd === end
        ? { start, end }
        : { start, end, scheduledEnd },
    asOf: Math.min(end, Math.max(start, Math.floor(input.asOf))),
    projects: input.projects.map(({ ref, name }) => ({ ref, name })),
    compute: input.compute.map((entry) => ({
      projectRef: entry.projectRef,
      kind: entry.kind,
      metric: entry.kind === 'branch' ? 'COMPUTE_HOURS_BRANCH' : entry.metric,
      hours: exactQuantity(entry.hours, 'Compute hours'),
      running: entry.running,
    })),
    addons: input.addons.map((entry) => ({
      ...entry,
      hours: exactQuantity(entry.hours, 'Add-on hours'),
    })),
    usage,
    usageByProject: (input.usageByProject ?? []).map((entry) => ({
      ...entry,
      usage: exactQuantity(entry.usage, `Usage of ${entry.metric}`),
    })),
    contract: input.contract
      ? {
          monthlyPriceCents: toCents(input.contract.monthlyPriceCents),
          computeCreditsCents: toCents(input.contract.computeCreditsCents),
        }
      : null,
  };
}

/** Hours of the whole cycle, exactly. */
export function cycleHours(period: BillingPeriod): Rational {
  return rational(period.end - period.start, 3600);
}

/**
 * Hours of the month the cycle was scheduled to be: from its start to its scheduled end. Monthly
 * prices spread per hour (add-ons) are spread over these, so a cycle cut short pays only its hours.
 */
export function scheduledCycleHours(period: BillingPeriod): Rational {
  return rational((period.scheduledEnd ?? period.end) - period.start, 3600);
}

/**
 * The cycle's fraction of a month (product-decisions §15): its length over the length it was scheduled
 * to have, exactly; 1 for a cycle that ran to its scheduled end. GB-months and the compute credits of a
 * cycle cut short by a plan change scale by it; count quotas do not.
 */
export function cycleFraction(period: BillingPeriod): Rational {
  const scheduledEnd = period.scheduledEnd ?? period.end;
  if (scheduledEnd <= period.end) return rational(1);
  return rational(period.end - period.start, scheduledEnd - period.start);
}
