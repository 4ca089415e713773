import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from './allocate.ts';
import { rational } from './rational.ts';

describe('allocate', () => {
  it('hands the remainder to the largest remainders', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(-100, [1, 1, 1])).toEqual([-34, -33, -33]);
    expect(allocate(5, [0.7, 0.3])).toEqual([4, 1]);
    expect(allocate(1000, [rational(1, 3), rational(2, 3)])).toEqual([333, 667]);
    expect(allocate(3, [0, 0])).toEqual([2, 1]);
    expect(allocate(0, [])).toEqual([]);
    expect(() => allocate(1, [])).toThrow(RangeError);
    expect(() => allocate(1, [-1, 2])).toThrow(RangeError);
  });

  it('sums to the total and keeps each part within one cent of its exact share', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.array(fc.nat({ max: 1e9 }), { minLength: 1, maxLength: 20 }),
        (total, weights) => {
          const parts = allocate(total, weights);
          expect(parts).toHaveLength(weights.length);
          expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
          const weightSum = weights.reduce((a, b) => a + b, 0);
          parts.forEach((part, i) => {
            expect(Number.isSafeInteger(part)).toBe(true);
            // |part - total*w/W| < 1  <=>  |part*W - total*w| < W  (all-zero weights: equal shares)
            const [w, W] =
              weightSum === 0
                ? [1n, BigInt(weights.length)]
                : [BigInt(weights[i] ?? 0), BigInt(weightSum)];
            const diff = BigInt(part) * W - BigInt(total) * w;
            expect((diff < 0n ? -diff : diff) < W).toBe(true);
          });
        },
      ),
    );
  });
});
