import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { creditedToBalance } from './balance-credit.ts';

describe('creditedToBalance', () => {
  it('adds a negative total to the balance, and nothing else', () => {
    expect(creditedToBalance(-2083, false)).toBe(2083);
    expect(creditedToBalance(0, false)).toBe(0);
    expect(creditedToBalance(2500, false)).toBe(0);
    expect(creditedToBalance(-2083, true)).toBe(0);
  });

  it('with what is charged, always makes up the total: amount due − credited = max(total, 0) − credited', () => {
    fc.assert(
      fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), (total) => {
        expect(Math.max(0, total) - creditedToBalance(total, false)).toBe(total);
      }),
    );
  });
});
