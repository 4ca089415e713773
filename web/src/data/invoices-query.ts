import { INVOICE_PAGE_SIZE, invoiceListSchema, type Invoice } from '@meterline/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { invoiceKeys } from './keys';

/** GET /platform/organizations/{slug}/billing/invoices?offset&limit, newest first. */
export function getInvoices(
  orgSlug: string,
  offset: number,
  limit: number,
  signal?: AbortSignal,
): Promise<Invoice[]> {
  const query = new URLSearchParams({ offset: String(offset), limit: String(limit) });
  return apiFetch(
    `/platform/organizations/${segment(orgSlug)}/billing/invoices?${query}`,
    invoiceListSchema,
    { signal },
  );
}

export const invoicesQueryOptions = (
  orgSlug: string,
  offset: number,
  limit: number = INVOICE_PAGE_SIZE,
) =>
  queryOptions({
    queryKey: invoiceKeys.list(orgSlug, offset, limit),
    queryFn: ({ signal }) => getInvoices(orgSlug, offset, limit, signal),
  });

/** One page of past invoices; the previous page stays on screen while the next one loads. */
export function useInvoicesQuery(
  orgSlug: string | undefined,
  {
    offset,
    limit = INVOICE_PAGE_SIZE,
    enabled = true,
  }: {
    offset: number;
    limit?: number;
    enabled?: boolean;
  },
) {
  return useQuery({
    ...invoicesQueryOptions(orgSlug ?? '', offset, limit),
    enabled: enabled && Boolean(orgSlug),
    placeholderData: keepPreviousData,
  });
}
