import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCents, parseFormattedCents } from './format-cents.ts';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

describe('formatCents', () => {
  it('formats en-US dollars', () => {
    expect(formatCents(123456)).toBe('$1,234.56');
    expect(formatCents(-5000)).toBe('-$50.00');
    expect(formatCents(0)).toBe('$0.00');
    expect(formatCents(7)).toBe('$0.07');
    expect(formatCents(-1)).toBe('-$0.01');
    expect(formatCents(100_000_000)).toBe('$1,000,000.00');
  });

  it('agrees with Intl and round-trips', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e13, max: 1e13 }), (cents) => {
        const text = formatCents(cents);
        expect(parseFormattedCents(text)).toBe(cents);
        expect(text).toBe(usd.format(cents / 100));
      }),
    );
    fc.assert(
      fc.property(fc.maxSafeInteger(), (cents) => {
        expect(parseFormattedCents(formatCents(cents))).toBe(cents);
      }),
    );
  });

  it('parses only its own format', () => {
    expect(parseFormattedCents('$1,234.5')).toBeNull();
    expect(parseFormattedCents('1,234.56')).toBeNull();
    expect(parseFormattedCents('$12,34.56')).toBeNull();
  });
});
