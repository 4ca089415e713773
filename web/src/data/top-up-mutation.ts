import {
  topUpBodySchema,
  topUpResponseSchema,
  type TopUpBody,
  type TopUpResponse,
} from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * POST /platform/organizations/{slug}/billing/credits/top-up with an `Idempotency-Key`: charges the
 * card and credits the balance. A repeat with the same key answers the first result and charges
 * nothing more. Billing write on subscriptions; a declined card is 402 with the provider's words.
 */
export async function topUpCredits(
  slug: string,
  body: TopUpBody,
  idempotencyKey: string,
): Promise<TopUpResponse> {
  if (!slug) throw new Error('Slug is required');
  // The domain's request schema: the same messages the server would answer with, without a call.
  const parsed = topUpBodySchema.safeParse(body);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Invalid top-up');
  return apiFetch(
    `/platform/organizations/${segment(slug)}/billing/credits/top-up`,
    topUpResponseSchema,
    { method: 'POST', body: parsed.data, headers: { 'Idempotency-Key': idempotencyKey } },
  );
}

export type TopUpOutcome = 'succeeded' | 'processing';

export interface TopUpRequest {
  body: TopUpBody;
  /** One per submission attempt, so a double submit or a retry of it charges once. */
  idempotencyKey: string;
  /**
   * The payment port's confirmation of a payment that needs the customer (3-D Secure); rejects
   * when the customer fails it or the card is refused.
   */
  confirmPayment: (paymentIntentSecret: string) => Promise<TopUpOutcome>;
}

/**
 * The whole top-up: the request, then, when the bank wants the customer, the confirmation in the
 * browser. The balance is refreshed once, after the outcome is known.
 */
export function useTopUpMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.topUpCredits,
    mutationFn: async ({ body, idempotencyKey, confirmPayment }: TopUpRequest) => {
      const response = await topUpCredits(slug, body, idempotencyKey);
      if (response.status !== 'requires_action') return response.status;
      if (!response.payment_intent_secret) {
        throw new Error('Could not confirm payment. Please try again or use a different card.');
      }
      return confirmPayment(response.payment_intent_secret);
    },
  });
}
