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
    // Counted in months of credits at minus the month's credits: the cycle's share of a month (one for
    // a whole cycle), or, when the compute billed is less than that, what they cover of a month.
    quantity:
      covered < roundHalfUp(cycleComputeCredits(window))
        ? Q.divide(Q.rational(covered), Q.rational(credits))
        : cycleFraction(window.period),
    unitPrice: Q.rational(-credits),
  });
}
