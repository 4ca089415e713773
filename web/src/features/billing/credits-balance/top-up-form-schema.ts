import { topUpAmountSchema } from '@meterline/domain';
import { z } from 'zod/mini';

export const PAYMENT_METHOD_REQUIRED_MESSAGE = 'Please select a payment method.';

/**
 * The Top Up form as typed (the amount is text, so "150.5" reaches the domain's rule as 150.5 and
 * gets its message) and as sent: whole dollars by the domain's `topUpAmountSchema`.
 */
export const topUpFormSchema = z.object({
  amount: z.pipe(
    z.pipe(
      z.string().check(z.trim()),
      z.transform((text) => (text === '' ? Number.NaN : Number(text))),
    ),
    topUpAmountSchema,
  ),
  paymentMethodId: z.string().check(z.minLength(1, PAYMENT_METHOD_REQUIRED_MESSAGE)),
});

export type TopUpFormInput = z.input<typeof topUpFormSchema>;
export type TopUpFormOutput = z.output<typeof topUpFormSchema>;
