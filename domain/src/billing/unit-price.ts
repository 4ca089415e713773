import { rational, type Rational } from '../money/rational.ts';

/**
 * A price as an exact ratio of integers: `cents` US cents for every `per` units of the metric's own
 * unit. $0.09 per GB of bytes is { cents: 9, per: 1_000_000_000 }; $0.01344 per hour is
 * { cents: 1344, per: 1000 }. No price is ever held as a float.
 */
export interface UnitPrice {
  readonly cents: number;
  readonly per: number;
}

/** Cents per one unit, exactly. */
export function priceRational(price: UnitPrice): Rational {
  let exact = exactPrices.get(price);
  if (!exact) {
    exact = rational(price.cents, price.per);
    exactPrices.set(price, exact);
  }
  return exact;
}

// The catalogue's prices are constants: each is turned into a fraction once.
const exactPrices = new WeakMap<UnitPrice, Rational>();

/**
 * "$0.01344" for a price per `unitsShown` units: the dollar amount with as many decimals as it needs
 * (at least two). Returns null when the price has no finite decimal expansion.
 */
export function formatPriceDollars(price: UnitPrice, unitsShown = 1): string | null {
  let value = rational(BigInt(price.cents) * BigInt(unitsShown), BigInt(price.per) * 100n);
  let decimals = 0;
  while (value.den !== 1n && decimals < 12) {
    value = rational(value.num * 10n, value.den);
    decimals += 1;
  }
  if (value.den !== 1n) return null;
  const shown = Math.max(decimals, 2);
  const digits = (value.num * 10n ** BigInt(shown - decimals)).toString().padStart(shown + 1, '0');
  const whole = digits.slice(0, -shown).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `$${whole}.${digits.slice(-shown)}`;
}
