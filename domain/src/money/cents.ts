/**
 * An amount of money in integer US cents. A plain number so that it travels through JSON and zod
 * unchanged; the helpers below are where the integer invariant is checked.
 */
export type Cents = number;

export function isCents(value: unknown): value is Cents {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** Returns the value as cents, or throws when it is not a safe integer (a fraction of a cent). */
export function toCents(value: number): Cents {
  if (!isCents(value)) throw new RangeError(`Not an integer amount of cents: ${value}`);
  return value;
}

/** The exact sum of amounts in cents; throws when the sum leaves the safe-integer range. */
export function sumCents(amounts: Iterable<Cents>): Cents {
  let total = 0n;
  for (const amount of amounts) total += BigInt(toCents(amount));
  return toCents(Number(total));
}

/** Dollars as entered by a person (whole or with cents) to cents, without float multiplication. */
export function dollarsToCents(dollars: number): Cents {
  return toCents(Number(BigInt(toCents(dollars)) * 100n));
}
