import { invoiceDetailSchema, type InvoiceDetail } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { invoiceKeys } from './keys';

/** GET /platform/organizations/{slug}/billing/invoices/{id}: lines and the PDF's address. */
export function getInvoice(
  orgSlug: string,
  invoiceId: string,
  signal?: AbortSignal,
): Promise<InvoiceDetail> {
  if (!invoiceId) return Promise.reject(new Error('Invoice ID is required'));
  return apiFetch(
    `/platform/organizations/${segment(orgSlug)}/billing/invoices/${segment(invoiceId)}`,
    invoiceDetailSchema,
    { signal },
  );
}

export const invoiceQueryOptions = (orgSlug: string, invoiceId: string) =>
  queryOptions({
    queryKey: invoiceKeys.detail(orgSlug, invoiceId),
    queryFn: ({ signal }) => getInvoice(orgSlug, invoiceId, signal),
    // A finalized invoice does not change but its status does: keep it fresh for a minute.
    staleTime: 60 * 1000,
  });

export function useInvoiceQuery(orgSlug: string | undefined, invoiceId: string | undefined) {
  return useQuery({
    ...invoiceQueryOptions(orgSlug ?? '', invoiceId ?? ''),
    enabled: Boolean(orgSlug) && Boolean(invoiceId),
  });
}
