import { rational, type Rational } from '@meterline/domain';

/** A PostgreSQL numeric, which arrives as a decimal string, read exactly. */
export function rationalFromDecimal(value: string): Rational {
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) throw new RangeError(`Not a decimal: ${value}`);
  const [, sign = '', whole = '', fraction = ''] = match;
  const digits = BigInt(`${sign}${whole || '0'}${fraction}`);
  return rational(digits, 10n ** BigInt(fraction.length));
}

/** For display and JSON: the nearest double of an exact value. */
export function toNumber(value: Rational): number {
  return Number(value.num) / Number(value.den);
}
