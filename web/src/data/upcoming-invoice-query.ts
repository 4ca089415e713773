import { upcomingInvoiceSchema, type UpcomingInvoice } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { invoiceKeys } from './keys';

/** GET /platform/organizations/{slug}/billing/invoices/upcoming, in the spec's version 2. */
export function getUpcomingInvoice(
  orgSlug: string,
  signal?: AbortSignal,
): Promise<UpcomingInvoice> {
  return apiFetch(
    `/platform/organizations/${segment(orgSlug)}/billing/invoices/upcoming`,
    upcomingInvoiceSchema,
    { signal, headers: { Version: '2' } },
  );
}

export const upcomingInvoiceQueryOptions = (orgSlug: string) =>
  queryOptions({
    queryKey: invoiceKeys.upcoming(orgSlug),
    queryFn: ({ signal }) => getUpcomingInvoice(orgSlug, signal),
  });

export function useUpcomingInvoiceQuery(orgSlug: string | undefined, { enabled = true } = {}) {
  return useQuery({
    ...upcomingInvoiceQueryOptions(orgSlug ?? ''),
    enabled: enabled && Boolean(orgSlug),
  });
}
