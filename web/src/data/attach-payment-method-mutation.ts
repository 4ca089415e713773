import { attachPaymentMethodResponseSchema, type PaymentMethod } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * POST /platform/organizations/{slug}/payments/attach {setup_intent_id}: records the card of a
 * setup the provider confirmed (idempotent: attaching the same setup twice records one card).
 * Billing write on payment methods.
 */
export function attachPaymentMethod(slug: string, setupIntentId: string): Promise<PaymentMethod> {
  return apiFetch(
    `/platform/organizations/${segment(slug)}/payments/attach`,
    attachPaymentMethodResponseSchema,
    {
      method: 'POST',
      body: { setup_intent_id: setupIntentId },
    },
  );
}

export function useAttachPaymentMethodMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.attachPaymentMethod,
    mutationFn: (setupIntentId: string) => attachPaymentMethod(slug, setupIntentId),
  });
}
