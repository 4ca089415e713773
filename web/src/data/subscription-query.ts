import { subscriptionSchema, type Subscription } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { subscriptionKeys } from './keys';

/** GET /platform/organizations/{slug}/billing/subscription */
export function getSubscription(orgSlug: string, signal?: AbortSignal): Promise<Subscription> {
  return apiFetch(
    `/platform/organizations/${segment(orgSlug)}/billing/subscription`,
    subscriptionSchema,
    { signal },
  );
}

export const subscriptionQueryOptions = (orgSlug: string) =>
  queryOptions({
    queryKey: subscriptionKeys.detail(orgSlug),
    queryFn: ({ signal }) => getSubscription(orgSlug, signal),
  });

export function useSubscriptionQuery(orgSlug: string | undefined, { enabled = true } = {}) {
  return useQuery({
    ...subscriptionQueryOptions(orgSlug ?? ''),
    enabled: enabled && Boolean(orgSlug),
  });
}
