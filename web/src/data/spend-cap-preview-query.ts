import { spendCapPreviewSchema, type SpendCapPreview } from '@meterline/domain';
import { useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { spendCapPreviewKeys } from './keys';
import { previewPolling } from './subscription-preview-query';

/**
 * POST /platform/organizations/{slug}/billing/spend-cap/preview `{spend_cap}`: what turning the cap on
 * (or off) charges now and to which card, and the `proration_date` to send back with the toggle.
 */
export async function previewSpendCap(
  slug: string,
  spendCap: boolean,
  signal?: AbortSignal,
): Promise<SpendCapPreview> {
  if (!slug) throw new Error('Slug is required');
  return apiFetch(
    `/platform/organizations/${segment(slug)}/billing/spend-cap/preview`,
    spendCapPreviewSchema,
    { method: 'POST', body: { spend_cap: spendCap }, signal },
  );
}

/**
 * The preview of turning the cap to `spendCap`, asked while `enabled` (the draft differs from the
 * setting) and again every PREVIEW_REFRESH_MS while `refresh`, as a plan change's preview is.
 */
export function useSpendCapPreviewQuery(
  slug: string,
  spendCap: boolean,
  { enabled = true, refresh = true }: { enabled?: boolean; refresh?: boolean } = {},
) {
  return useQuery({
    queryKey: spendCapPreviewKeys.detail(slug, spendCap),
    queryFn: ({ signal }) => previewSpendCap(slug, spendCap, signal),
    enabled: enabled && Boolean(slug),
    ...previewPolling(refresh),
  });
}
