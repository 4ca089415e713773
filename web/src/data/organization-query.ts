import { organizationSchema, type Organization } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { organizationKeys } from './keys';

/** The spec caches organization details for 30 minutes. */
export const ORGANIZATION_STALE_TIME = 30 * 60 * 1000;

/** GET /platform/organizations/{slug}. A 404 means the user cannot see it (or it does not exist). */
export function getOrganization(slug: string, signal?: AbortSignal): Promise<Organization> {
  return apiFetch(`/platform/organizations/${segment(slug)}`, organizationSchema, { signal });
}

export const organizationQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: organizationKeys.detail(slug),
    queryFn: ({ signal }) => getOrganization(slug, signal),
    staleTime: ORGANIZATION_STALE_TIME,
  });

export function useOrganizationQuery(slug: string | undefined) {
  return useQuery({ ...organizationQueryOptions(slug ?? ''), enabled: Boolean(slug) });
}
