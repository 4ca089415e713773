import type { OrganizationSummary } from '@meterline/domain';

/** From this many organizations on, the switcher's list has a filter: fewer are read at a glance. */
export const SWITCHER_FILTER_FROM = 6;

/** The organizations whose name or slug contains the query, ignoring case and surrounding spaces. */
export function filterOrganizations<T extends Pick<OrganizationSummary, 'name' | 'slug'>>(
  organizations: readonly T[],
  query: string,
): T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [...organizations];
  return organizations.filter(
    (org) =>
      org.name.toLocaleLowerCase().includes(needle) ||
      org.slug.toLocaleLowerCase().includes(needle),
  );
}
