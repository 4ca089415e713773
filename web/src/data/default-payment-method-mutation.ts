import { defaultPaymentMethodResponseSchema } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * PUT /platform/organizations/{slug}/payments/default {payment_method_id}: future invoices charge
 * this card. Immediate, and charges nothing. Billing write on payment methods.
 */
export async function setDefaultPaymentMethod(
  slug: string,
  paymentMethodId: string,
): Promise<string> {
  const { defaultPaymentMethodId } = await apiFetch(
    `/platform/organizations/${segment(slug)}/payments/default`,
    defaultPaymentMethodResponseSchema,
    { method: 'PUT', body: { payment_method_id: paymentMethodId } },
  );
  return defaultPaymentMethodId;
}

export function useDefaultPaymentMethodMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.setDefaultPaymentMethod,
    mutationFn: (paymentMethodId: string) => setDefaultPaymentMethod(slug, paymentMethodId),
  });
}
