import * as Q from '../money/rational.ts';
import { roundHalfUp } from '../money/round.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import { breakdownOf, QUANTITY_DECIMALS } from './breakdown.ts';
import { COMPUTE_DEFINITIONS, COMPUTE_METRICS, type ComputeMetric } from './compute.ts';
import type { BillingWindow, ComputeKind, ExactComputeHours } from './invoice-input.ts';
import { invoiceLine } from './invoice-line.ts';
import type { UpcomingInvoiceLine } from './schemas.ts';
import { formatPriceDollars, priceRational } from './unit-price.ts';

const KINDS: readonly ComputeKind[] = ['primary', 'read_replica', 'branch'];

function description(kind: ComputeKind, metric: ComputeMetric): string {
  const name = COMPUTE_DEFINITIONS[metric].name;
  if (kind === 'branch') return 'Branching Compute Hours';
  return kind === 'read_replica' ? `Replica Compute Hours ${name}` : `Compute Hours ${name}`;
}

function computeLine(
  window: BillingWindow,
  kind: ComputeKind,
  metric: ComputeMetric,
  entries: readonly ExactComputeHours[],
): UpcomingInvoiceLine {
  const hourly = COMPUTE_DEFINITIONS[metric].hourlyPrice;
  const shares = entries.map((entry) => ({
    projectRef: entry.projectRef,
    weight: Q.multiply(entry.hours, priceRational(hourly)),
    usage: entry.hours,
    hours: entry.hours,
  }));
  const hours = Q.sum(entries.map((entry) => entry.hours));
  const amount = roundHalfUp(Q.sum(shares.map((share) => share.weight)));
  return invoiceLine({
    description: description(kind, metric),
    amount,
    unitPriceDesc: `${formatPriceDollars(hourly)} per hour`,
    usageMetric: metric,
    usageOriginal: Q.toNumber(hours, QUANTITY_DECIMALS),
    // No hours are included: the plan's compute credits are a line of their own.
    includedQuantity: 0,
    quantity: hours,
    unitPrice: priceRational(hourly),
    isBranch: kind === 'branch',
    isReadReplica: kind === 'read_replica',
    breakdown: breakdownOf(amount, shares, window.projects),
  });
}

/**
 * One line per kind and size (primaries, then replicas, then branches; sizes ascending), each
 * rounded once from the exact sum of hours times the hourly price. Free-plan projects run on the
 * free instance and make no compute lines.
 */
export function computeLines(window: BillingWindow): UpcomingInvoiceLine[] {
  if (!BILLING_PLANS[window.planId].billsCompute) return [];
  return KINDS.flatMap((kind) =>
    COMPUTE_METRICS.flatMap((metric) => {
      const entries = window.compute.filter((e) => e.kind === kind && e.metric === metric);
      return entries.length === 0 ? [] : [computeLine(window, kind, metric, entries)];
    }),
  );
}
