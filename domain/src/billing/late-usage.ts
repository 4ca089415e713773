import { formatPeriod } from '../format/dates.ts';
import { sumCents } from '../money/cents.ts';
import * as Q from '../money/rational.ts';
import type { PlanId } from '../organization/plans.ts';
import { QUANTITY_DECIMALS } from './breakdown.ts';
import { isComputeMetric } from './compute.ts';
import { computeCreditsLine } from './compute-credits.ts';
import { computeLines } from './compute-lines.ts';
import {
  cycleFraction,
  toBillingWindow,
  type BillingPeriod,
  type BillingWindow,
  type ComputeHours,
  type Quantity,
} from './invoice-input.ts';
import { invoiceLine } from './invoice-line.ts';
import { isTimeIntegrated } from './overage.ts';
import { overageLines } from './overage-lines.ts';
import { isQuotaMetric, QUOTA_DEFINITIONS, type QuotaMetric } from './quotas.ts';
import type { PricedInvoice, UpcomingInvoiceLine } from './schemas.ts';
import { spendCapOverageLines } from './spend-cap/lines.ts';
import type { CappedOverage } from './spend-cap/overage-reading.ts';

/** The rules a closed cycle was billed by: they price whatever of its usage arrives after the close. */
export interface ClosedCycleTerms {
  readonly planId: PlanId;
  readonly usageBillingEnabled: boolean;
  /** With its scheduled end when a plan change cut it short: its GB-months and credits scale by it. */
  readonly period: BillingPeriod;
  /** The organization's projects when the cycle closed: per-project quotas count them. */
  readonly projects: readonly { readonly ref: string; readonly name: string }[];
}

/** What a cycle's usage adds up to: hours per compute resource, and each quota metric's total. */
export interface CycleUsage {
  readonly compute: readonly ComputeHours[];
  readonly usage: Readonly<Partial<Record<QuotaMetric, Quantity>>>;
}

function usageWindow(terms: ClosedCycleTerms, usage: CycleUsage): BillingWindow {
  return toBillingWindow({
    planId: terms.planId,
    usageBillingEnabled: terms.usageBillingEnabled,
    period: terms.period,
    // A closed cycle is priced at its end: nothing runs on into it any more.
    asOf: terms.period.end,
    projects: terms.projects,
    compute: usage.compute.map((entry) => ({ ...entry, running: false })),
    addons: [],
    usage: usage.usage,
  });
}

function usageLinesOf(window: BillingWindow): UpcomingInvoiceLine[] {
  const compute = computeLines(window);
  const credits = computeCreditsLine(window, compute);
  return [...compute, ...(credits ? [credits] : []), ...overageLines(window)];
}

/**
 * The lines of a cycle that its usage decides, as closing the cycle bills them: compute, the compute
 * credits and overage (the plan fee and add-ons do not depend on reported usage).
 */
export function cycleUsageLines(terms: ClosedCycleTerms, usage: CycleUsage): UpcomingInvoiceLine[] {
  return usageLinesOf(usageWindow(terms, usage));
}

/**
 * The exact quantity a usage line counts in a window (a size's GB-months in a cycle cut short); null
 * for the credits, which count none.
 */
function quantityOf(window: BillingWindow, line: UpcomingInvoiceLine): Q.Rational | null {
  const metric = line.usage_metric;
  if (metric !== null && isQuotaMetric(metric)) {
    const usage = window.usage.get(metric) ?? Q.ZERO;
    return isTimeIntegrated(metric) ? Q.multiply(usage, cycleFraction(window.period)) : usage;
  }
  if (metric === null || !isComputeMetric(metric)) return null;
  const kind = line.metadata.is_branch
    ? 'branch'
    : line.metadata.is_read_replica
      ? 'read_replica'
      : 'primary';
  return Q.sum(
    window.compute
      .filter((entry) => entry.kind === kind && entry.metric === metric)
      .map((entry) => entry.hours),
  );
}

/**
 * What the usage reported after a cycle closed adds to it: for each of the cycle's usage lines, what a
 * single close would bill for all of its usage now (`reported`) minus what was billed for it already
 * (`billed`, priced again by the same rules). Each line is rounded once, so late lines and the lines
 * already billed add up, to the cent, to what one close would have billed; usage that fell within
 * the quota left at the close is free, the rest is overage. A line is named after the period it
 * belongs to. Only lines that change make one (an average that a late sample lowers makes a negative
 * one); the same usage billed again makes none.
 */
export function lateUsageLines(
  terms: ClosedCycleTerms,
  billed: CycleUsage,
  reported: CycleUsage,
): UpcomingInvoiceLine[] {
  const before = usageWindow(terms, billed);
  const after = usageWindow(terms, reported);
  const beforeLines = new Map(usageLinesOf(before).map((line) => [line.description, line]));
  const afterLines = usageLinesOf(after);
  const descriptions = new Set([
    ...afterLines.map((line) => line.description),
    ...beforeLines.keys(),
  ]);
  const afterByDescription = new Map(afterLines.map((line) => [line.description, line]));
  const period = formatPeriod(terms.period.start, terms.period.end);
  return [...descriptions].flatMap((description) => {
    const now = afterByDescription.get(description);
    const then = beforeLines.get(description);
    const line = now ?? then;
    if (!line) return [];
    const amount = (now?.amount ?? 0) - (then?.amount ?? 0);
    if (amount === 0) return [];
    const quantity = (window: BillingWindow) => quantityOf(window, line) ?? Q.ZERO;
    const late = Q.subtract(quantity(after), quantity(before));
    const unitPrice = Q.rationalFromNumber(line.unit_price);
    // What the line bills now less what was billed, in the line's own unit: the late amount at the
    // line's price, so that quantity × unit price is the amount (each close rounded once, so the
    // difference of the two quantities could round a cent away from the difference of the amounts).
    const billable = Q.isZero(unitPrice)
      ? Q.subtract(lineQuantity(now), lineQuantity(then))
      : Q.divide(Q.rational(amount), unitPrice);
    const hasUsage = quantityOf(after, line) !== null;
    return [
      invoiceLine({
        description: `${description} (late usage, ${period})`,
        amount,
        unitPriceDesc: line.unit_price_desc,
        usageMetric: line.usage_metric,
        usageOriginal: hasUsage ? Q.toNumber(late, QUANTITY_DECIMALS) : null,
        // The part of the late usage that fell within the quota left at the close.
        includedQuantity: hasUsage ? includedOfLate(line, late, billable) : null,
        quantity: billable,
        unitPrice,
        isBranch: line.metadata.is_branch,
        isReadReplica: line.metadata.is_read_replica,
      }),
    ];
  });
}

/** Late usage less what it bills (counted back in the usage's unit); none for compute and add-ons. */
function includedOfLate(line: UpcomingInvoiceLine, late: Q.Rational, billable: Q.Rational): number {
  const metric = line.usage_metric;
  if (metric === null || !isQuotaMetric(metric)) return 0;
  const units = Q.rational(QUOTA_DEFINITIONS[metric].priceUnit.units);
  return Q.toNumber(Q.subtract(late, Q.multiply(billable, units)), QUANTITY_DECIMALS);
}

function lineQuantity(line: UpcomingInvoiceLine | undefined): Q.Rational {
  return line ? Q.rationalFromNumber(line.quantity) : Q.ZERO;
}

/** The upcoming invoice with the late usage it will also bill: its own lines, in both totals. */
export function withLateUsage<Invoice extends PricedInvoice>(
  invoice: Invoice,
  late: readonly UpcomingInvoiceLine[],
): Invoice {
  if (late.length === 0) return invoice;
  const extra = sumCents(late.map((line) => line.amount));
  return {
    ...invoice,
    lines: [...invoice.lines, ...late],
    amount_total: invoice.amount_total + extra,
    amount_projected: invoice.amount_projected + extra,
    projection: { ...invoice.projection, lines: [...invoice.projection.lines, ...late] },
  };
}

/**
 * The capped overage a closed cycle whose spend cap was toggled bills late (`amounts`: its cap-off
 * intervals settled again with all its usage by event time, less what its invoices billed), as lines
 * named after the period they belong to, like every late line.
 */
export function lateSpendCapLines(
  period: BillingPeriod,
  amounts: CappedOverage,
): UpcomingInvoiceLine[] {
  const named = formatPeriod(period.start, period.end);
  return spendCapOverageLines(amounts).map((line) => ({
    ...line,
    description: `${line.description} (late usage, ${named})`,
  }));
}
