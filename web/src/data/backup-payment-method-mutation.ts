import { backupPaymentMethodResponseSchema } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * PUT /platform/organizations/{slug}/payments/backup {payment_method_id}: the card the billing engine
 * charges when the default card declines an invoice; moves the mark from any earlier backup. The
 * default card is refused with 409. Charges nothing. Billing write on payment methods.
 */
export async function setBackupPaymentMethod(
  slug: string,
  paymentMethodId: string,
): Promise<string | null> {
  const { backupPaymentMethodId } = await apiFetch(
    `/platform/organizations/${segment(slug)}/payments/backup`,
    backupPaymentMethodResponseSchema,
    { method: 'PUT', body: { payment_method_id: paymentMethodId } },
  );
  return backupPaymentMethodId;
}

export function useBackupPaymentMethodMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.setBackupPaymentMethod,
    mutationFn: (paymentMethodId: string) => setBackupPaymentMethod(slug, paymentMethodId),
  });
}
