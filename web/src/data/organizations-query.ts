import { organizationSummarySchema, type OrganizationSummary } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiFetch } from './api-client';
import { organizationKeys } from './keys';

const organizationsSchema = z.array(organizationSummarySchema);

/** GET /platform/organizations: the organizations the signed-in user belongs to. */
export function getOrganizations(signal?: AbortSignal): Promise<OrganizationSummary[]> {
  return apiFetch('/platform/organizations', organizationsSchema, { signal });
}

export const organizationsQueryOptions = () =>
  queryOptions({
    queryKey: organizationKeys.list(),
    queryFn: ({ signal }) => getOrganizations(signal),
    staleTime: 5 * 60 * 1000,
  });

export function useOrganizationsQuery() {
  return useQuery(organizationsQueryOptions());
}
