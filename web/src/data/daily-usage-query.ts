import { dailyUsageSchema, type DailyUsage } from '@meterline/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { usageKeys, type DailyUsageRange } from './keys';

/** The spec caches daily usage as fresh for an hour. */
export const DAILY_USAGE_STALE_TIME = 60 * 60 * 1000;

/** GET /platform/organizations/{slug}/usage/daily?start&end&projectRef (days inclusive). */
export function getDailyUsage(
  orgSlug: string,
  range: DailyUsageRange,
  signal?: AbortSignal,
): Promise<DailyUsage> {
  if (!range.start) return Promise.reject(new Error('Start date is required'));
  const query = new URLSearchParams({ start: range.start, end: range.end });
  if (range.projectRef) query.set('projectRef', range.projectRef);
  return apiFetch(
    `/platform/organizations/${segment(orgSlug)}/usage/daily?${query}`,
    dailyUsageSchema,
    { signal },
  );
}

export const dailyUsageQueryOptions = (orgSlug: string, range: DailyUsageRange) =>
  queryOptions({
    queryKey: usageKeys.daily(orgSlug, range),
    queryFn: ({ signal }) => getDailyUsage(orgSlug, range, signal),
    staleTime: DAILY_USAGE_STALE_TIME,
  });

/** Switching the project filter keeps the previous chart until the new one arrives. */
export function useDailyUsageQuery(orgSlug: string | undefined, range: DailyUsageRange | null) {
  return useQuery({
    ...dailyUsageQueryOptions(orgSlug ?? '', range ?? { start: '', end: '' }),
    enabled: Boolean(orgSlug) && range !== null,
    placeholderData: keepPreviousData,
  });
}
