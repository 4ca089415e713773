import { auditLogPageSchema, type AuditAction, type AuditLogPage } from '@meterline/domain';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { auditLogKeys } from './keys';

/** The audit log's filters as the page holds them: days (YYYY-MM-DD, UTC), an email or an id. */
export interface AuditLogFilters {
  action?: AuditAction;
  actor?: string;
  /** From this day (inclusive). */
  since?: string;
  /** To this day (inclusive). */
  until?: string;
}

/** Only the filters that are set, so that equal filters make one query key and one address. */
export function activeAuditLogFilters(filters: AuditLogFilters): AuditLogFilters {
  return Object.fromEntries(
    Object.entries(filters).filter(([, value]) => typeof value === 'string' && value.trim() !== ''),
  ) as AuditLogFilters;
}

export function auditLogSearch(filters: AuditLogFilters, extra: Record<string, string> = {}) {
  return new URLSearchParams({ ...activeAuditLogFilters(filters), ...extra }).toString();
}

/** GET /platform/organizations/{slug}/audit-log: one page, after `cursor`. Owners and admins. */
export function getAuditLogPage(
  slug: string,
  filters: AuditLogFilters,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<AuditLogPage> {
  const query = auditLogSearch(filters, cursor ? { cursor } : {});
  return apiFetch(
    `/platform/organizations/${segment(slug)}/audit-log${query ? `?${query}` : ''}`,
    auditLogPageSchema,
    { signal },
  );
}

/** The log, newest first, a page at a time ("Load more" asks for the next cursor's page). */
export function useAuditLogQuery(
  slug: string,
  filters: AuditLogFilters,
  { enabled = true }: { enabled?: boolean } = {},
) {
  const active = activeAuditLogFilters(filters);
  return useInfiniteQuery({
    queryKey: auditLogKeys.list(slug, active),
    queryFn: ({ pageParam, signal }) => getAuditLogPage(slug, active, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: enabled && Boolean(slug),
  });
}
