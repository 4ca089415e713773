import { spendAlertStateSchema, type SpendAlertState } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { spendAlertKeys } from './keys';

/**
 * GET /platform/organizations/{slug}/billing/spend-alert: the budget (null when none), thresholds, the
 * cycle's spend and projection and the thresholds reached. Billing read on subscriptions.
 */
export function getSpendAlert(slug: string, signal?: AbortSignal): Promise<SpendAlertState> {
  return apiFetch(
    `/platform/organizations/${segment(slug)}/billing/spend-alert`,
    spendAlertStateSchema,
    { signal },
  );
}

export const spendAlertQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: spendAlertKeys.detail(slug),
    queryFn: ({ signal }) => getSpendAlert(slug, signal),
  });

export function useSpendAlertQuery(slug: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...spendAlertQueryOptions(slug), enabled: enabled && Boolean(slug) });
}
