import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiRequest, ResponseShapeError, segment } from './api-client';
import { invoiceKeys } from './keys';

/** A HEAD answer has no body; the count is in its header. */
const emptyBody = z.unknown();

/** HEAD /platform/organizations/{slug}/billing/invoices: the total from X-Total-Count. */
export async function getInvoicesCount(orgSlug: string, signal?: AbortSignal): Promise<number> {
  const path = `/platform/organizations/${segment(orgSlug)}/billing/invoices`;
  const { headers } = await apiRequest(path, emptyBody, { method: 'HEAD', signal });
  const header = headers.get('x-total-count');
  const total = Number(header);
  if (header === null || header.trim() === '' || !Number.isSafeInteger(total) || total < 0) {
    throw new ResponseShapeError(path, `X-Total-Count: expected a count, got ${String(header)}`);
  }
  return total;
}

export const invoicesCountQueryOptions = (orgSlug: string) =>
  queryOptions({
    queryKey: invoiceKeys.count(orgSlug),
    queryFn: ({ signal }) => getInvoicesCount(orgSlug, signal),
  });

export function useInvoicesCountQuery(orgSlug: string | undefined, { enabled = true } = {}) {
  return useQuery({
    ...invoicesCountQueryOptions(orgSlug ?? ''),
    enabled: enabled && Boolean(orgSlug),
  });
}
