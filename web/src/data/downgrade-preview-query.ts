import { subscriptionPreviewSchema, type SubscriptionPreview, type Tier } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, isApiError, segment } from './api-client';
import { subscriptionPreviewKeys } from './keys';

/**
 * POST /platform/organizations/{slug}/billing/subscription/preview (header `Version: 2`, body
 * `{tier}`): what a change to `tier` would charge and remove, and when it takes effect.
 */
export function previewSubscriptionChange(
  orgSlug: string,
  tier: Tier,
  signal?: AbortSignal,
): Promise<SubscriptionPreview> {
  if (!orgSlug) throw new Error('Slug is required');
  return apiFetch(
    `/platform/organizations/${segment(orgSlug)}/billing/subscription/preview`,
    subscriptionPreviewSchema,
    { method: 'POST', body: { tier }, headers: { Version: '2' }, signal },
  );
}

/** The spec's retry rule for the preview (§7, §9): up to 3 times, never after a 400. */
export function shouldRetryPreview(failureCount: number, error: unknown): boolean {
  if (isApiError(error, 400)) return false;
  return failureCount < 3;
}

export const downgradePreviewQueryOptions = (orgSlug: string, tier: Tier) =>
  queryOptions({
    queryKey: subscriptionPreviewKeys.detail(orgSlug, tier),
    queryFn: ({ signal }) => previewSubscriptionChange(orgSlug, tier, signal),
    retry: shouldRetryPreview,
  });

/**
 * The preview of a downgrade, for its confirm modal. It shares its key (and so its cache) with any
 * other preview of the same tier; a plan change removes every preview (invalidation.ts).
 */
export function useDowngradePreviewQuery(
  orgSlug: string,
  tier: Tier,
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({ ...downgradePreviewQueryOptions(orgSlug, tier), enabled });
}
