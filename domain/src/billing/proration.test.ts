import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chargeToday, unusedCredit } from './proration.ts';

const START = 1_767_225_600;
const END = START + 31 * 86_400;

const period = fc
  .tuple(fc.integer({ min: 0, max: 2e9 }), fc.integer({ min: 1, max: 400 * 86_400 }))
  .map(([start, length]) => ({ start, end: start + length }));
const price = fc.integer({ min: 0, max: 10_000_000 });

describe('unusedCredit', () => {
  it('prorates by the remaining time, half up', () => {
    expect(unusedCredit(2500, START, END, START)).toBe(2500);
    expect(unusedCredit(2500, START, END, END)).toBe(0);
    expect(unusedCredit(2500, 0, 30, 15)).toBe(1250);
    expect(unusedCredit(2500, 0, 3, 1)).toBe(1667); // 1666.67
    expect(unusedCredit(1, 0, 2, 1)).toBe(1); // 0.5 rounds up
    expect(unusedCredit(2500, START, END, START - 100)).toBe(2500);
    expect(unusedCredit(2500, START, END, END + 100)).toBe(0);
    expect(unusedCredit(-100, START, END, START)).toBe(0);
    expect(unusedCredit(2500, END, START, START)).toBe(0);
  });

  it('gives the full price for a whole period and nothing for a finished one', () => {
    fc.assert(
      fc.property(price, period, (p, { start, end }) => {
        expect(unusedCredit(p, start, end, start)).toBe(p);
        expect(unusedCredit(p, start, end, end)).toBe(0);
      }),
    );
  });

  it('never grows as time passes and stays within 0 and the price', () => {
    fc.assert(
      fc.property(
        price,
        period,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (p, { start, end }, a, b) => {
          const [early, late] = [Math.min(a, b), Math.max(a, b)].map(
            (f) => start + Math.floor(f * (end - start)),
          ) as [number, number];
          const first = unusedCredit(p, start, end, early);
          const second = unusedCredit(p, start, end, late);
          expect(second).toBeLessThanOrEqual(first);
          expect(first).toBeLessThanOrEqual(p);
          expect(second).toBeGreaterThanOrEqual(0);
        },
      ),
    );
  });
});

describe('chargeToday', () => {
  it('is the new price less the unused amount and the credit balance, never below zero', () => {
    expect(chargeToday(59_900, 1250, 5000)).toBe(53_650);
    expect(chargeToday(2500, 2000, 5000)).toBe(0);
    fc.assert(
      fc.property(price, price, price, (n, u, c) => {
        expect(chargeToday(n, u, c)).toBe(Math.max(0, n - u - c));
      }),
    );
  });
});
