import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { TOP_UP_AMOUNT_HINT, topUpAmountSchema, topUpBodySchema } from './top-up.ts';

const message = (value: unknown) => topUpAmountSchema.safeParse(value).error?.issues[0]?.message;

describe('top-up amount', () => {
  it('accepts whole dollars from 100 to 2000', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100, max: 2000 }), (amount) => {
        expect(topUpAmountSchema.parse(amount)).toBe(amount);
      }),
    );
  });

  it('refuses amounts out of range and fractions with the spec messages', () => {
    expect(message(99)).toBe('Amount must be between $100 - $2000.');
    expect(message(2001)).toBe('Amount must be between $100 - $2000.');
    expect(message(150.5)).toBe('Amount must be a whole number.');
    expect(message('150')).toBe('Amount must be between $100 - $2000.');
    expect(message(1e300)).toBe('Amount must be between $100 - $2000.');
  });

  it('hints the range in the figures and words of its message', () => {
    expect(TOP_UP_AMOUNT_HINT).toBe('A whole number of US dollars between $100 - $2000.');
    const range = /\$\d+ - \$\d+/;
    expect(TOP_UP_AMOUNT_HINT.match(range)?.[0]).toBe(message(99)?.match(range)?.[0]);
  });

  it('is documented as what it checks: an integer from 100 to 2000', () => {
    expect(z.toJSONSchema(topUpAmountSchema, { io: 'input' })).toMatchObject({
      type: 'integer',
      minimum: 100,
      maximum: 2000,
    });
  });

  it('needs a payment method and a captcha token', () => {
    const result = topUpBodySchema.safeParse({ amount: 150 });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'Payment method id required',
      'Captcha not submitted',
    ]);
  });
});
