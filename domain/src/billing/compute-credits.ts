import type { Cents } from '../money/cents.ts';
import { sumCents } from '../money/cents.ts';
import { formatCents } from '../money/format-cents.ts';
import * as Q from '../money/rational.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import type { BillingWindow } from './invoice-input.ts';
import { invoiceLine } from './invoice-line.ts';
import type { UpcomingInvoiceLine } from './schemas.ts';

export function computeCreditsCents(window: BillingWindow): Cents {
  return (
    window.contract?.computeCreditsCents ?? BILLING_PLANS[window.planId].computeCreditsCents ?? 0
  );
}

/**
 * "Compute Credits": a negative line covering the organization's compute of the cycle up to the
 * plan's credits, never more than the compute billed (primaries, replicas and branches alike).
 * Absent when the plan has no credits or there is no compute to cover yet (a "$0.00" credit is noise).
 */
export function computeCreditsLine(
  window: BillingWindow,
  computeLines: readonly UpcomingInvoiceLine[],
): UpcomingInvoiceLine | null {
  const credits = computeCreditsCents(window);
  if (credits <= 0 || computeLines.length === 0) return null;
  const billed = sumCents(computeLines.map((line) => line.amount));
  const covered = Math.min(credits, billed);
  if (covered <= 0) return null;
  return invoiceLine({
    description: 'Compute Credits',
    amount: -covered,
    unitPriceDesc: `${formatCents(credits)} per month`,
    usageMetric: null,
    usageOriginal: null,
    // One month's credits; what they cover is capped by the compute billed, so no unit price makes it.
    quantity: Q.rational(1),
    unitPrice: null,
  });
}
