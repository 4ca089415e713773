import { paymentLinkSchema, type PaymentLink } from '@meterline/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { invoiceKeys } from './keys';

/**
 * GET /platform/organizations/{slug}/billing/invoices/{id}/payment-link: where to pay an
 * outstanding invoice. 403 without billing write on subscriptions, 409 when nothing is left to pay.
 */
export function getInvoicePaymentLink(orgSlug: string, invoiceId: string): Promise<PaymentLink> {
  if (!invoiceId) return Promise.reject(new Error('Invoice ID is required'));
  return apiFetch(
    `/platform/organizations/${segment(orgSlug)}/billing/invoices/${segment(invoiceId)}/payment-link`,
    paymentLinkSchema,
  );
}

/**
 * Asking for a payment link is an action, not data to cache, so it is a mutation. It changes
 * nothing on success (the browser leaves for the payment page); a failure usually means the list
 * is out of date (already paid, forgiven), so the invoices and their count are fetched again.
 */
export function useInvoicePaymentLinkMutation(orgSlug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...invoiceKeys.all, 'payment-link', orgSlug],
    mutationFn: (invoiceId: string) => getInvoicePaymentLink(orgSlug, invoiceId),
    onError: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: invoiceKeys.lists(orgSlug) }),
        queryClient.invalidateQueries({ queryKey: invoiceKeys.count(orgSlug) }),
      ]),
  });
}
