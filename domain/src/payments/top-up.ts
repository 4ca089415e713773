import { z } from 'zod';

export const TOP_UP_MIN_DOLLARS = 100;
export const TOP_UP_MAX_DOLLARS = 2000;
export const TOP_UP_DEFAULT_DOLLARS = 100;

export const TOP_UP_RANGE_MESSAGE = 'Amount must be between $100 - $2000.';
export const TOP_UP_WHOLE_MESSAGE = 'Amount must be a whole number.';

/** The top-up amount, in whole US dollars (the one money field of the API that is not in cents). */
export const topUpAmountSchema = z
  .number({ error: TOP_UP_RANGE_MESSAGE })
  .refine((value) => Number.isInteger(value), TOP_UP_WHOLE_MESSAGE)
  .refine(
    (value) => value >= TOP_UP_MIN_DOLLARS && value <= TOP_UP_MAX_DOLLARS,
    TOP_UP_RANGE_MESSAGE,
  );

const addressSchema = z.object({
  line1: z.string(),
  line2: z.string().nullable().optional(),
  city: z.string(),
  state: z.string().nullable().optional(),
  postal_code: z.string(),
  country: z.string(),
});

export const topUpBodySchema = z
  .object({
    payment_method_id: z
      .string({ error: 'Payment method id required' })
      .min(1, 'Payment method id required')
      .max(100),
    amount: topUpAmountSchema,
    hcaptcha_token: z
      .string({ error: 'Captcha not submitted' })
      .min(1, 'Captcha not submitted')
      .max(4096),
    address: addressSchema.nullable().optional(),
    tax_id: z
      .object({ type: z.string(), value: z.string(), country: z.string().optional() })
      .nullable()
      .optional(),
    billing_name: z.string().max(200).nullable().optional(),
  })
  .meta({ id: 'TopUpRequest' });
export type TopUpBody = z.infer<typeof topUpBodySchema>;

export const topUpResponseSchema = z
  .object({
    status: z.enum(['succeeded', 'requires_action', 'processing']),
    payment_intent_secret: z.string().nullable(),
  })
  .meta({ id: 'TopUpResponse' });
export type TopUpResponse = z.infer<typeof topUpResponseSchema>;

export function dollarsToCentsExact(dollars: number): number {
  if (!Number.isInteger(dollars)) throw new RangeError('Whole dollars only');
  return dollars * 100;
}
