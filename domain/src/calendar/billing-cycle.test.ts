import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMonthsClamped,
  cycleContaining,
  cycleDays,
  daysLeft,
  nextCycle,
} from './billing-cycle.ts';

const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 1000;

describe('billing cycles', () => {
  it('adds calendar months, clamping to the last day of shorter months', () => {
    expect(addMonthsClamped(utc(2026, 1, 31), 1)).toBe(utc(2026, 2, 28));
    expect(addMonthsClamped(utc(2026, 1, 31), 2)).toBe(utc(2026, 3, 31));
    expect(addMonthsClamped(utc(2026, 11, 15), 2)).toBe(utc(2027, 1, 15));
  });

  it('finds the cycle containing a moment and the next one', () => {
    const anchor = utc(2026, 1, 31);
    expect(cycleContaining(anchor, utc(2026, 3, 1))).toEqual({
      start: utc(2026, 2, 28),
      end: utc(2026, 3, 31),
    });
    expect(nextCycle(anchor, utc(2026, 2, 28))).toEqual({
      start: utc(2026, 2, 28),
      end: utc(2026, 3, 31),
    });
  });

  it('counts days and days left', () => {
    const cycle = { start: utc(2026, 11, 1), end: utc(2026, 12, 1) };
    expect(cycleDays(cycle)).toBe(30);
    expect(daysLeft(cycle, utc(2026, 11, 21) + 3600)).toBe(10);
    expect(daysLeft(cycle, utc(2026, 12, 5))).toBe(0);
  });

  it('tiles time: consecutive cycles meet, never overlap, and contain their moment', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: utc(2020, 1, 1), max: utc(2030, 1, 1) }),
        fc.integer({ min: 0, max: 5 * 365 * 86_400 }),
        (anchor, offset) => {
          const at = anchor + offset;
          const cycle = cycleContaining(anchor, at);
          expect(cycle.start).toBeLessThanOrEqual(at);
          expect(cycle.end).toBeGreaterThan(at);
          expect(nextCycle(anchor, cycle.end).start).toBe(cycle.end);
          expect(cycleDays(cycle)).toBeGreaterThanOrEqual(28);
          expect(cycleDays(cycle)).toBeLessThanOrEqual(31);
        },
      ),
    );
  });
});
