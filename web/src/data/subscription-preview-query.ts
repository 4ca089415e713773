import {
  PRORATION_DATE_MAX_AGE_SECONDS,
  PRORATION_DATE_STALE_MESSAGE,
  subscriptionPreviewSchema,
  type SubscriptionPreview,
  type Tier,
} from '@meterline/domain';
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

/**
 * How often a preview on screen is asked again: half the time the server accepts its `proration_date`
 * (PRORATION_DATE_MAX_AGE_SECONDS), so an owner who leaves the dialog open always confirms a price
 * the server still honours, with room for a slow answer or a throttled background tab.
 */
export const PREVIEW_REFRESH_MS = (PRORATION_DATE_MAX_AGE_SECONDS * 1000) / 2;

/**
 * The server's refusal of a change priced by a preview it no longer honours: the proration date is
 * too old or from another cycle (400), or the subscription moved since (409, "Preview the change
 * again."). The answer is a new preview, not a dead end.
 */
export function isStalePreviewError(error: unknown): boolean {
  if (isApiError(error, 400)) return error.message === PRORATION_DATE_STALE_MESSAGE;
  return isApiError(error, 409) && error.message.endsWith('Preview the change again.');
}

/**
 * The preview of a change to `tier`; asked only while `enabled` (the dialog is open), and asked again
 * every PREVIEW_REFRESH_MS while `refresh` (not while the change it priced is being sent).
 */
export function useSubscriptionPreviewQuery(
  slug: string,
  tier: Tier,
  { enabled = true, refresh = true }: { enabled?: boolean; refresh?: boolean } = {},
) {
  return useQuery({
    queryKey: subscriptionPreviewKeys.detail(slug, tier),
    queryFn: ({ signal }) => previewSubscription(slug, tier, signal),
    enabled: enabled && Boolean(slug),
    ...previewPolling(refresh),
  });
}

/**
 * How a preview is asked, whatever it prices: at the moment it is shown (a dialog opened again asks
 * again), again every PREVIEW_REFRESH_MS while `refresh`, even in a hidden tab (the owner may come back
 * to it and confirm at once), and retried only when the server says to preview again.
 */
export function previewPolling(refresh: boolean) {
  return {
    retry: shouldRetryPreview,
    staleTime: 0,
    gcTime: 0,
    refetchInterval: refresh ? PREVIEW_REFRESH_MS : (false as const),
    refetchIntervalInBackground: true,
  };
}
