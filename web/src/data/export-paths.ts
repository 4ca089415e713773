import { segment } from './api-client';

// CSV downloads are links, not queries: the browser saves the answer (Content-Disposition) with the
// session cookie it sends to every GET of the API.

/** GET /platform/organizations/{slug}/billing/invoices/export */
export function invoicesExportPath(orgSlug: string): string {
  return `/platform/organizations/${segment(orgSlug)}/billing/invoices/export`;
}

/** GET /platform/organizations/{slug}/usage/export?start&end[&projectRef] (days, inclusive) */
export function usageExportPath(
  orgSlug: string,
  range: { start: string; end: string; projectRef?: string | null },
): string {
  const query = new URLSearchParams({ start: range.start, end: range.end });
  if (range.projectRef) query.set('projectRef', range.projectRef);
  return `/platform/organizations/${segment(orgSlug)}/usage/export?${query.toString()}`;
}

/** GET /platform/organizations/{slug}/audit-log/export, with the log's filters (none: everything). */
export function auditLogExportPath(orgSlug: string, filters: Record<string, string | undefined>) {
  const set = Object.entries(filters).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
  );
  const query = new URLSearchParams(set).toString();
  return `/platform/organizations/${segment(orgSlug)}/audit-log/export${query ? `?${query}` : ''}`;
}
