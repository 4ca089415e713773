import { customerProfileSchema, type CustomerProfile } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { customerKeys } from './keys';

/**
 * GET /platform/organizations/{slug}/customer: billing name, address and additional emails.
 * Needs billing read on the customer (403 otherwise).
 */
export function getCustomerProfile(slug: string, signal?: AbortSignal): Promise<CustomerProfile> {
  return apiFetch(`/platform/organizations/${segment(slug)}/customer`, customerProfileSchema, {
    signal,
  });
}

export const customerQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: customerKeys.detail(slug),
    queryFn: ({ signal }) => getCustomerProfile(slug, signal),
  });

export function useCustomerQuery(slug: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...customerQueryOptions(slug), enabled: enabled && Boolean(slug) });
}
