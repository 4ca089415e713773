/**
 * An exact fraction. Prices such as $0.01344 per hour or $0.00325 per user have no exact binary
 * floating-point value, so every money computation is carried out on bigint fractions and rounded
 * once, at the invoice line.
 */
export interface Rational {
  readonly num: bigint;
  readonly den: bigint;
}

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) {
    const rest = x % y;
    x = y;
    y = rest;
  }
  return x;
}

/** The fraction n/d in lowest terms with a positive denominator (d is not zero). */
function reduced(n: bigint, d: bigint): Rational {
  if (d === 1n) return { num: n, den: 1n };
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  if (n === 0n) return { num: 0n, den: 1n };
  const divisor = gcd(n, d);
  return divisor === 1n ? { num: n, den: d } : { num: n / divisor, den: d / divisor };
}

export function rational(num: bigint | number, den: bigint | number = 1n): Rational {
  const n = typeof num === 'bigint' ? num : BigInt(num);
  const d = typeof den === 'bigint' ? den : BigInt(den);
  if (d === 0n) throw new RangeError('A rational cannot have a zero denominator');
  return reduced(n, d);
}

export const ZERO: Rational = rational(0n);
export const ONE: Rational = rational(1n);

/**
 * The decimal a person means by a number: 0.1 is 1/10 (not the nearest double). Uses the shortest
 * round-trip representation, so integers, decimals and exponent forms all convert exactly.
 */
export function rationalFromNumber(value: number): Rational {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
  if (Number.isInteger(value) && Number.isSafeInteger(value)) return rational(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(String(value));
  if (!match) throw new RangeError(`Cannot read ${value} as a decimal`);
  const [, sign = '', whole = '0', fraction = '', exponent = '0'] = match;
  const digits = BigInt(`${sign}${whole}${fraction}`);
  const scale = Number(exponent) - fraction.length;
  return scale >= 0
    ? rational(digits * 10n ** BigInt(scale))
    : rational(digits, 10n ** BigInt(-scale));
}

export function add(a: Rational, b: Rational): Rational {
  if (b.num === 0n) return a;
  if (a.num === 0n) return b;
  if (a.den === b.den) return reduced(a.num + b.num, a.den);
  return reduced(a.num * b.den + b.num * a.den, a.den * b.den);
}

export function subtract(a: Rational, b: Rational): Rational {
  if (b.num === 0n) return a;
  if (a.den === b.den) return reduced(a.num - b.num, a.den);
  return reduced(a.num * b.den - b.num * a.den, a.den * b.den);
}

export function multiply(a: Rational, b: Rational): Rational {
  if (a.num === 0n || b.num === 0n) return ZERO;
  return reduced(a.num * b.num, a.den * b.den);
}

export function divide(a: Rational, b: Rational): Rational {
  if (b.num === 0n) throw new RangeError('Division by zero');
  return reduced(a.num * b.den, a.den * b.num);
}

export function sum(values: Iterable<Rational>): Rational {
  let total = ZERO;
  for (const value of values) total = add(total, value);
  return total;
}

/** -1, 0 or 1 as a is below, equal to or above b. */
export function compare(a: Rational, b: Rational): -1 | 0 | 1 {
  const diff = a.num * b.den - b.num * a.den;
  return diff < 0n ? -1 : diff > 0n ? 1 : 0;
}

export function max(a: Rational, b: Rational): Rational {
  return compare(a, b) >= 0 ? a : b;
}

export function min(a: Rational, b: Rational): Rational {
  return compare(a, b) <= 0 ? a : b;
}

export function isZero(value: Rational): boolean {
  return value.num === 0n;
}

/** The nearest integer, ties away from zero (so a negated value rounds to the negated integer). */
export function roundToInteger(value: Rational): bigint {
  const magnitude = value.num < 0n ? -value.num : value.num;
  const rounded = (2n * magnitude + value.den) / (2n * value.den);
  return value.num < 0n ? -rounded : rounded;
}

/**
 * The exact decimal text of a fraction whose denominator divides a power of ten, such as a sum of
 * decimals (PostgreSQL's numeric reads it as is): 1/8 is "0.125", -3/2 is "-1.5", 7 is "7".
 */
export function toDecimalString(value: Rational): string {
  let rest = value.den;
  let twos = 0;
  let fives = 0;
  for (; rest % 2n === 0n; rest /= 2n) twos++;
  for (; rest % 5n === 0n; rest /= 5n) fives++;
  if (rest !== 1n) throw new RangeError(`${value.num}/${value.den} has no finite decimal form`);
  const places = Math.max(twos, fives);
  const scaled = (value.num * 10n ** BigInt(places)) / value.den;
  const digits = (scaled < 0n ? -scaled : scaled).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const fraction = places > 0 ? `.${digits.slice(digits.length - places)}` : '';
  return `${scaled < 0n ? '-' : ''}${whole}${fraction}`;
}

/** For display only (usage and hours shown beside an amount), never for money. */
export function toNumber(value: Rational, decimals = 6): number {
  const scale = 10n ** BigInt(decimals);
  // Rounding needs no lowest terms: value × scale as an unreduced fraction.
  return Number(roundToInteger({ num: value.num * scale, den: value.den })) / Number(scale);
}
