import { deletedPaymentMethodSchema } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * DELETE /platform/organizations/{slug}/payments {card_id}: removes a card. The default card is
 * refused with 409, except on the free plan with exactly one card. Billing write on payment
 * methods.
 */
export async function deletePaymentMethod(slug: string, cardId: string): Promise<string> {
  const { deleted } = await apiFetch(
    `/platform/organizations/${segment(slug)}/payments`,
    deletedPaymentMethodSchema,
    { method: 'DELETE', body: { card_id: cardId } },
  );
  return deleted;
}

export function useDeletePaymentMethodMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.deletePaymentMethod,
    mutationFn: (cardId: string) => deletePaymentMethod(slug, cardId),
  });
}
