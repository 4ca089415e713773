import type { Cents } from '../money/cents.ts';
import { toCents } from '../money/cents.ts';
import * as Q from '../money/rational.ts';
import { roundHalfUp } from '../money/round.ts';

/**
 * What is left of a price paid for [periodStart, periodEnd) at `at` (unix seconds):
 * price × remaining / total, rounded half up once, never below zero. Before the period it is the
 * whole price; from its end on, 0.
 */
export function unusedCredit(
  priceCents: Cents,
  periodStart: number,
  periodEnd: number,
  at: number,
): Cents {
  toCents(priceCents);
  const total = periodEnd - periodStart;
  if (total <= 0) return 0;
  const remaining = Math.min(total, Math.max(0, periodEnd - at));
  const share = Q.divide(Q.rationalFromNumber(remaining), Q.rationalFromNumber(total));
  return Math.max(0, roundHalfUp(Q.multiply(Q.rational(priceCents), share)));
}

/**
 * Charge today = max(0, new monthly price − unused amount of the current plan − credit balance),
 * the spec's formula as written (a positive balance is credit owed to the customer).
 */
export function chargeToday(
  newMonthlyPriceCents: Cents,
  unusedCents: Cents,
  creditBalanceCents: Cents,
): Cents {
  return Math.max(
    0,
    toCents(newMonthlyPriceCents) - toCents(unusedCents) - toCents(creditBalanceCents),
  );
}
