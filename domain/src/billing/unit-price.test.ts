import { describe, expect, it } from 'vitest';
import { formatPriceDollars, priceRational } from './unit-price.ts';
import { rational } from '../money/rational.ts';

describe('unit price', () => {
  it('is an exact ratio', () => {
    expect(priceRational({ cents: 1344, per: 1000 })).toEqual(rational(168, 125));
  });

  it('formats dollars with as many decimals as the price needs', () => {
    expect(formatPriceDollars({ cents: 2500, per: 1 })).toBe('$25.00');
    expect(formatPriceDollars({ cents: 9, per: 1e9 }, 1e9)).toBe('$0.09');
    expect(formatPriceDollars({ cents: 1344, per: 1000 })).toBe('$0.01344');
    expect(formatPriceDollars({ cents: 200_000_000, per: 1 })).toBe('$2,000,000.00');
    expect(formatPriceDollars({ cents: 1, per: 3 })).toBeNull();
  });
});
