import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import { plainTextSchema } from '../schemas/common.ts';
import { captchaTokenInputSchema, paymentMethodIdSchema } from './contract.ts';

export const TOP_UP_MIN_DOLLARS = 100;
export const TOP_UP_MAX_DOLLARS = 2000;
export const TOP_UP_DEFAULT_DOLLARS = 100;

/** "$100 - $2000": the range as the spec's message writes it, and the form's hint with it. */
export const TOP_UP_RANGE_TEXT = `$${TOP_UP_MIN_DOLLARS} - $${TOP_UP_MAX_DOLLARS}`;
export const TOP_UP_RANGE_MESSAGE = `Amount must be between ${TOP_UP_RANGE_TEXT}.`;
export const TOP_UP_WHOLE_MESSAGE = 'Amount must be a whole number.';
/** The hint under the amount field: the rule in the words and figures its messages use. */
export const TOP_UP_AMOUNT_HINT = `A whole number of US dollars between ${TOP_UP_RANGE_TEXT}.`;

/**
 * The top-up amount, in whole US dollars (the one money field of the API that is not in cents). Built
 * of zod's own checks, not refinements, so the API document states it: an integer from 100 to 2000.
 * The range comes first: 1e300 is out of range before it is a whole number.
 */
export const topUpAmountSchema = z
  .number({ error: TOP_UP_RANGE_MESSAGE })
  .check(z.gte(TOP_UP_MIN_DOLLARS, TOP_UP_RANGE_MESSAGE))
  .check(z.lte(TOP_UP_MAX_DOLLARS, TOP_UP_RANGE_MESSAGE))
  .check(z.int(TOP_UP_WHOLE_MESSAGE));

/**
 * The billing profile a top-up may bring. Checked here for size and characters only: the top-up applies
 * the billing-profile rules itself (an empty address is "not given" there, never "clear it").
 */
const TEXT_MAX = 200;
const TAX_ID_TEXT_MAX = 64;
const addressSchema = z.object({
  line1: plainTextSchema('Address line 1', TEXT_MAX),
  line2: z.optional(z.nullable(plainTextSchema('Address line 2', TEXT_MAX))),
  city: plainTextSchema('City', TEXT_MAX),
  state: z.optional(z.nullable(plainTextSchema('State', TEXT_MAX))),
  postal_code: plainTextSchema('Postal code', TEXT_MAX),
  country: plainTextSchema('Country', TEXT_MAX),
});

export const topUpBodySchema = documented(
  z.object({
    payment_method_id: paymentMethodIdSchema,
    amount: topUpAmountSchema,
    hcaptcha_token: captchaTokenInputSchema,
    address: z.optional(z.nullable(addressSchema)),
    tax_id: z.optional(
      z.nullable(
        z.object({
          type: plainTextSchema('Tax ID type', TAX_ID_TEXT_MAX),
          value: plainTextSchema('Tax ID', TAX_ID_TEXT_MAX),
          country: z.optional(plainTextSchema('Tax ID country', TAX_ID_TEXT_MAX)),
        }),
      ),
    ),
    billing_name: z.optional(z.nullable(plainTextSchema('Name', TEXT_MAX))),
  }),
  { id: 'TopUpRequest' },
);
export type TopUpBody = z.infer<typeof topUpBodySchema>;

export const topUpResponseSchema = documented(
  z.object({
    status: z.enum(['succeeded', 'requires_action', 'processing']),
    payment_intent_secret: z.nullable(z.string()),
  }),
  { id: 'TopUpResponse' },
);
export type TopUpResponse = z.infer<typeof topUpResponseSchema>;

export function dollarsToCentsExact(dollars: number): number {
  if (!Number.isInteger(dollars)) throw new RangeError('Whole dollars only');
  return dollars * 100;
}
