import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dollarsToCents, isCents, sumCents, toCents } from './cents.ts';

describe('cents', () => {
  it('accepts only safe integers', () => {
    expect(isCents(1)).toBe(true);
    expect(isCents(1.5)).toBe(false);
    expect(isCents(Number.MAX_SAFE_INTEGER + 1)).toBe(false);
    expect(() => toCents(0.1)).toThrow(RangeError);
  });

  it('sums exactly', () => {
    expect(sumCents([])).toBe(0);
    expect(sumCents([2500, -1000, 1])).toBe(1501);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 })), (amounts) => {
        expect(sumCents(amounts)).toBe(amounts.reduce((a, b) => a + b, 0));
      }),
    );
  });

  it('converts whole dollars to cents', () => {
    expect(dollarsToCents(100)).toBe(10_000);
    expect(() => dollarsToCents(1.5)).toThrow(RangeError);
  });
});
