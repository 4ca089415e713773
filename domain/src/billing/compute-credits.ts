import type { Cents } from '../money/cents.ts';
import { sumCents } from '../money/cents.ts';
import { formatCents } from '../money/format-cents.ts';
import * as Q from '../money/rational.ts';
import { roundHalfUp } from '../money/round.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import { cycleFraction, type BillingWindow } from './invoice-input.ts';
import { invoiceLine } from './invoice-line.ts';
import type { UpcomingInvoiceLine } from './schemas.ts';

/** The plan's (or contract's) compute credits for a whole month. */
export function computeCreditsCents(window: BillingWindow): Cents {
  return (
    window.contract?.computeCreditsCents ?? BILLING_PLANS[window.planId].computeCreditsCents ?? 0
  );
}

/**
 * The credits of this cycle, exactly: the month's credits × the cycle's fraction of a month, so a
 * cycle cut short by a plan change gets its share of them, never a fresh month (product-decisions §15).
 */
export function cycleComputeCredits(window: BillingWindow): Q.Rational {
  return Q.multiply(Q.rational(computeCreditsCents(window)), cycleFraction(window.period));
}

/**
 * "Compute Credits": a negative line covering the organization's compute of the cycle up to the
 * cycle's credits (rounded half up once), never more than the compute billed (primaries, replicas and
 * branches alike). Absent when the plan has no credits or there is no compute to cover yet (a "$0.00"
 * credit is noise).
 */
export function computeCreditsLine(
  window: BillingWindow,
  computeLines: readonly UpcomingInvoiceLine[],
): UpcomingInvoiceLine | null {
  const credits = computeCreditsCents(window);
  if (credits <= 0 || computeLines.length === 0) return null;
  const billed = sumCents(computeLines.map((line) => line.amount));
  // The compute billed is whole cents, so the smaller of it and the rounded credits is the rounded
  // smaller of the two.
  const covered = Math.min(roundHalfUp(cycleComputeCredits(window)), billed);
  if (covered <= 0) return null;
  return invoiceLine({
    description: 'Compute Credits',
    amount: -covered,
    unitPriceDesc: `${formatCents(credits)} per month`,
    usageMetric: null,
    usageOriginal: null,
    // The cycle's share of a month's credits (one month for a whole cycle); what they cover is capped
    // by the compute billed, so no unit price makes it.
    quantity: cycleFraction(window.period),
    unitPrice: null,
  });
}
