import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  divide,
  multiply,
  rational,
  rationalFromNumber,
  roundToInteger,
  subtract,
  toDecimalString,
  toNumber,
} from './rational.ts';

describe('rational', () => {
  it('normalizes sign and common factors', () => {
    expect(rational(6, -4)).toEqual({ num: -3n, den: 2n });
    expect(rational(0, 5)).toEqual({ num: 0n, den: 1n });
    expect(() => rational(1, 0)).toThrow(RangeError);
  });

  it('writes a terminating fraction as its exact decimal', () => {
    expect(toDecimalString(rational(1, 8))).toBe('0.125');
    expect(toDecimalString(rational(-3, 2))).toBe('-1.5');
    expect(toDecimalString(rational(7))).toBe('7');
    expect(toDecimalString(rational(0))).toBe('0');
    expect(toDecimalString(rational(-1, 1_000_000))).toBe('-0.000001');
    expect(toDecimalString(rationalFromNumber(1.5e21))).toBe('1500000000000000000000');
    expect(toDecimalString(rational(1, 2n ** 70n))).toBe(
      '0.0000000000000000000008470329472543003390683225006796419620513916015625',
    );
    expect(() => toDecimalString(rational(1, 3))).toThrow(RangeError);
  });

  it('sums decimals exactly: the decimal text of a sum reads back as that sum', () => {
    const readDecimal = (text: string) => {
      const [whole = '0', fraction = ''] = text.split('.');
      return rational(BigInt(`${whole}${fraction}`), 10n ** BigInt(fraction.length));
    };
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1e12, max: 1e12, noNaN: true }), { maxLength: 30 }),
        (values) => {
          const total = values.map(rationalFromNumber).reduce(add, rational(0));
          const text = toDecimalString(total);
          expect(text).toMatch(/^-?\d+(\.\d*[1-9])?$/);
          expect(readDecimal(text)).toEqual(total);
        },
      ),
    );
  });

  it('reads numbers as the decimals a person means', () => {
    expect(rationalFromNumber(0.1)).toEqual(rational(1, 10));
    expect(rationalFromNumber(0.01344)).toEqual(rational(1344, 100_000));
    expect(rationalFromNumber(-2.5)).toEqual(rational(-5, 2));
    expect(rationalFromNumber(1e-7)).toEqual(rational(1, 10_000_000));
    expect(rationalFromNumber(1.5e21)).toEqual(rational(1_500_000_000_000_000_000_000n));
    expect(() => rationalFromNumber(Number.NaN)).toThrow(RangeError);
  });

  it('computes exactly where floats do not', () => {
    expect(add(rationalFromNumber(0.1), rationalFromNumber(0.2))).toEqual(rational(3, 10));
    expect(multiply(rational(1344, 1000), rational(360))).toEqual(rational(48384, 100));
    expect(subtract(rational(1, 3), rational(1, 3))).toEqual(rational(0));
    expect(divide(rational(1, 3), rational(2, 3))).toEqual(rational(1, 2));
  });

  it('rounds ties away from zero', () => {
    expect(roundToInteger(rational(5, 2))).toBe(3n);
    expect(roundToInteger(rational(-5, 2))).toBe(-3n);
    expect(roundToInteger(rational(249, 100))).toBe(2n);
    expect(roundToInteger(rational(-251, 100))).toBe(-3n);
    expect(toNumber(rational(1, 3), 2)).toBe(0.33);
  });

  it('round-trips decimal numbers and orders like numbers', () => {
    fc.assert(
      fc.property(fc.integer(), fc.integer({ min: 0, max: 12 }), (digits, scale) => {
        const x = Number(`${digits}e-${scale}`);
        expect(rationalFromNumber(x)).toEqual(rational(digits, 10n ** BigInt(scale)));
      }),
    );
    fc.assert(
      fc.property(fc.integer(), fc.integer(), (a, b) => {
        expect(compare(rational(a), rational(b))).toBe(Math.sign(a - b) || 0);
      }),
    );
  });
});
