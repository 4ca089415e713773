import { payLinkInvoiceSchema, type PayLinkInvoice } from '@meterline/domain';
import { useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { invoiceKeys } from './keys';

/**
 * GET /platform/pay/invoices/{id}?key=: the invoice as its signed payment link shows it (the billing
 * emails' Pay Now link), with no session. A wrong key is a 404, like an unknown invoice.
 */
export function getPayLinkInvoice(
  invoiceId: string,
  key: string,
  signal?: AbortSignal,
): Promise<PayLinkInvoice> {
  return apiFetch(
    `/platform/pay/invoices/${segment(invoiceId)}?key=${encodeURIComponent(key)}`,
    payLinkInvoiceSchema,
    { signal },
  );
}

export function usePayLinkInvoiceQuery(invoiceId: string, key: string) {
  return useQuery({
    queryKey: invoiceKeys.payLink(invoiceId, key),
    queryFn: ({ signal }) => getPayLinkInvoice(invoiceId, key, signal),
    // As the member's invoice: the status may change while the page is open.
    staleTime: 60 * 1000,
    enabled: Boolean(invoiceId) && Boolean(key),
  });
}
