import { topUpAmountSchema } from '@meterline/domain';
import { z } from 'zod';

export const PAYMENT_METHOD_REQUIRED_MESSAGE = 'Please select a payment method.';

/**
 * The Top Up form as typed (the amount is text, so "150.5" reaches the domain's rule as 150.5 and
 * gets its message) and as sent: whole dollars by the domain's `topUpAmountSchema`.
 */
export const topUpFormSchema = z.object({
  amount: z
    .string()
    .trim()
    .transform((text) => (text === '' ? Number.NaN : Number(text)))
    .pipe(topUpAmountSchema),
  paymentMethodId: z.string().min(1, PAYMENT_METHOD_REQUIRED_MESSAGE),
});

export type TopUpFormInput = z.input<typeof topUpFormSchema>;
export type TopUpFormOutput = z.output<typeof topUpFormSchema>;
