import { plansListSchema, type PlansList } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { planKeys } from './keys';

/** GET /platform/organizations/{slug}/billing/plans: every plan, the current one marked. */
export function getPlans(orgSlug: string, signal?: AbortSignal): Promise<PlansList> {
  return apiFetch(`/platform/organizations/${segment(orgSlug)}/billing/plans`, plansListSchema, {
    signal,
  });
}

export const plansQueryOptions = (orgSlug: string) =>
  queryOptions({
    queryKey: planKeys.list(orgSlug),
    queryFn: ({ signal }) => getPlans(orgSlug, signal),
  });

export function usePlansQuery(orgSlug: string | undefined, { enabled = true } = {}) {
  return useQuery({ ...plansQueryOptions(orgSlug ?? ''), enabled: enabled && Boolean(orgSlug) });
}
