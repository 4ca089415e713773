import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rational } from './rational.ts';
import { roundHalfUp } from './round.ts';

describe('roundHalfUp', () => {
  it('rounds half up, and a negated amount to the negated cents', () => {
    expect(roundHalfUp(rational(48384, 100))).toBe(484);
    expect(roundHalfUp(rational(29592, 10))).toBe(2959);
    expect(roundHalfUp(rational(1, 2))).toBe(1);
    expect(roundHalfUp(rational(-1, 2))).toBe(-1);
    expect(roundHalfUp(rational(-0))).toBe(0);
  });

  it('is within half a cent of the exact amount', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        (num, den) => {
          const rounded = BigInt(roundHalfUp(rational(num, den)));
          const diff = rounded * den - num; // (rounded - exact) * den
          expect(2n * (diff < 0n ? -diff : diff) <= den).toBe(true);
          expect(roundHalfUp(rational(-num, den))).toBe(-Number(rounded) || 0);
        },
      ),
    );
  });
});
