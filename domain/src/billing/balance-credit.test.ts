import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { creditCover, creditedToBalance } from './balance-credit.ts';

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

describe('creditCover', () => {
  it('acme-pro: $50.00 of credit against a $101.24 invoice leaves $51.24 for the card', () => {
    expect(creditCover(10_124, 5000, false)).toEqual({ creditApplied: 5000, charge: 5124 });
    expect(creditCover(2500, 30_000, false)).toEqual({ creditApplied: 2500, charge: 0 });
    expect(creditCover(2500, -300, false)).toEqual({ creditApplied: 0, charge: 2500 });
    expect(creditCover(2500, 5000, true)).toEqual({ creditApplied: 0, charge: 2500 });
  });

  it('credit applied + charge = the total (never below zero), the credit never above the balance', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.boolean(),
        (total, balance, partner) => {
          const { creditApplied, charge } = creditCover(total, balance, partner);
          expect(creditApplied + charge).toBe(Math.max(0, total));
          expect(creditApplied).toBeGreaterThanOrEqual(0);
          expect(charge).toBeGreaterThanOrEqual(0);
          expect(creditApplied).toBeLessThanOrEqual(Math.max(0, balance));
        },
      ),
    );
  });
});
