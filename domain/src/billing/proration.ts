import type { Cents } from '../money/cents.ts';
import { toCents } from '../money/cents.ts';
import { rational } from '../money/rational.ts';
import { roundHalfUp } from '../money/round.ts';

/**
 * What is left of a price paid for [periodStart, periodEnd) at `at`: price × remaining / total,
 * rounded half up once, never below zero. Before the period it is the whole price; after it, 0.
 */
export function unusedCredit(priceCents: Cents, periodStart: number, periodEnd: number, at: number): Cents {
  toCents(priceCents);
  if (periodEnd <= periodStart) return 0;
  const remaining = Math.min(periodEnd - periodStart, Math.max(0, periodEnd - at));
  return Math.max(0, roundHalfUp(rational(BigInt(priceCents) * BigInt(Math.round(remaining * 1000)), BigInt(Math.round((periodEnd - periodStart) * 1000)))));
}

/** Charge today = max(0, new monthly price − unused amount of the old plan − credit balance). */
export function chargeToday(newMonthlyPriceCents: Cents, unusedCents: Cents, creditBalanceCents: Cents): Cents {
  return Math.max(0, toCents(newMonthlyPriceCents) - toCents(unusedCents) - toCents(creditBalanceCents));
}
