import type { Cents } from './cents.ts';
import { toCents } from './cents.ts';
import { rational, rationalFromNumber, sum, type Rational } from './rational.ts';

export type Weight = number | bigint | Rational;

function toRational(weight: Weight): Rational {
  if (typeof weight === 'number') return rationalFromNumber(weight);
  if (typeof weight === 'bigint') return rational(weight);
  return weight;
}

/**
 * Splits an amount in proportion to the weights with the largest-remainder method: each part is its
 * exact share rounded down, and the cents left over go one each to the largest remainders (earlier
 * position first on a tie). The parts always add up to the total and each is within one cent of its
 * exact share. A negative total is split as its magnitude, then negated. All-zero weights split
 * evenly. Weights must not be negative.
 */
export function allocate(total: Cents, weights: readonly Weight[]): Cents[] {
  toCents(total);
  if (weights.length === 0) {
    if (total !== 0) throw new RangeError('Cannot allocate a non-zero amount to no parts');
    return [];
  }
  const ratios = weights.map(toRational);
  if (ratios.some((ratio) => ratio.num < 0n)) throw new RangeError('Weights must not be negative');
  const totalWeight = sum(ratios);
  const shares = totalWeight.num === 0n ? ratios.map(() => rational(1n)) : ratios;
  const shareTotal = totalWeight.num === 0n ? rational(ratios.length) : totalWeight;

  const magnitude = BigInt(Math.abs(total));
  // share_i = magnitude * w_i / W, expressed over a common denominator to compare remainders exactly.
  const exact = shares.map((share) => {
    const num = magnitude * share.num * shareTotal.den;
    const den = share.den * shareTotal.num;
    // Remainders are only compared (cross-multiplied), so they need no lowest terms.
    return { floor: num / den, remainder: { num: num % den, den } };
  });
  let left = magnitude - exact.reduce((acc, part) => acc + part.floor, 0n);
  const order = exact
    .map((part, index) => ({ index, remainder: part.remainder }))
    .sort((a, b) => {
      const diff = b.remainder.num * a.remainder.den - a.remainder.num * b.remainder.den;
      return diff > 0n ? 1 : diff < 0n ? -1 : a.index - b.index;
    });
  const parts = exact.map((part) => part.floor);
  for (const { index } of order) {
    if (left === 0n) break;
    parts[index] = (parts[index] ?? 0n) + 1n;
    left -= 1n;
  }
  const sign = total < 0 ? -1 : 1;
  return parts.map((part) => (part === 0n ? 0 : sign * Number(part)));
}
