import { subscriptionPreviewSchema, type SubscriptionPreview, type Tier } from '@meterline/domain';
import { useQuery } from '@tanstack/react-query';
import { apiFetch, isApiError, ResponseShapeError, segment } from './api-client';
import { subscriptionPreviewKeys } from './keys';

/**
 * POST /platform/organizations/{slug}/billing/subscription/preview (header `Version: 2`) `{tier}`: the
 * change invoice a change to `tier` would issue now, and its `proration_date` to send back with the change.
 */
export async function previewSubscription(
  slug: string,
  tier: Tier,
  signal?: AbortSignal,
): Promise<SubscriptionPreview> {
  if (!slug) throw new Error('Slug is required');
  if (!tier) throw new Error('tier is required');
  return apiFetch(
    `/platform/organizations/${segment(slug)}/billing/subscription/preview`,
    subscriptionPreviewSchema,
    { method: 'POST', body: { tier }, headers: { Version: '2' }, signal },
  );
}

/** The spec's rule (§7, §9): up to 3 retries, none on a 400; a response of the wrong shape is a bug. */
export function shouldRetryPreview(failureCount: number, error: unknown): boolean {
  if (isApiError(error, 400) || error instanceof ResponseShapeError) return false;
  return failureCount < 3;
}

/** The preview of a change to `tier`; asked only while `enabled` (the dialog is open). */
export function useSubscriptionPreviewQuery(
  slug: string,
  tier: Tier,
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: subscriptionPreviewKeys.detail(slug, tier),
    queryFn: ({ signal }) => previewSubscription(slug, tier, signal),
    enabled: enabled && Boolean(slug),
    retry: shouldRetryPreview,
    // A preview is priced at the moment it is asked: a dialog opened again asks again.
    staleTime: 0,
    gcTime: 0,
  });
}
