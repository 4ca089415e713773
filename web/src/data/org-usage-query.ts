import { orgUsageSchema, type OrgUsage } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { usageKeys } from './keys';

/** GET /platform/organizations/{slug}/usage: the current cycle per metric, against the plan. */
export function getOrgUsage(orgSlug: string, signal?: AbortSignal): Promise<OrgUsage> {
  return apiFetch(`/platform/organizations/${segment(orgSlug)}/usage`, orgUsageSchema, {
    signal,
  });
}

export const orgUsageQueryOptions = (orgSlug: string) =>
  queryOptions({
    queryKey: usageKeys.org(orgSlug),
    queryFn: ({ signal }) => getOrgUsage(orgSlug, signal),
    // Shared by the restriction banner on every organization page: no refetch on each navigation.
    staleTime: 5 * 60 * 1000,
  });

export function useOrgUsageQuery(orgSlug: string | undefined, { enabled = true } = {}) {
  return useQuery({
    ...orgUsageQueryOptions(orgSlug ?? ''),
    enabled: enabled && Boolean(orgSlug),
  });
}
