import type { Cents } from './cents.ts';
import { toCents } from './cents.ts';
import { roundToInteger, type Rational } from './rational.ts';

/**
 * Rounds an exact amount of cents to whole cents, half up: ties go away from zero (as Java's
 * HALF_UP), so a credit rounds to exactly the negation of the matching charge. This is the one
 * rounding step of an invoice line.
 */
export function roundHalfUp(exactCents: Rational): Cents {
  return toCents(Number(roundToInteger(exactCents)));
}
