import { backupPaymentMethodResponseSchema } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * DELETE /platform/organizations/{slug}/payments/backup: the organization keeps the card but has no
 * backup any more. Billing write on payment methods.
 */
export async function removeBackupPaymentMethod(slug: string): Promise<null> {
  await apiFetch(
    `/platform/organizations/${segment(slug)}/payments/backup`,
    backupPaymentMethodResponseSchema,
    { method: 'DELETE' },
  );
  return null;
}

export function useRemoveBackupPaymentMethodMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.removeBackupPaymentMethod,
    mutationFn: () => removeBackupPaymentMethod(slug),
  });
}
