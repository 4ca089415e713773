import { ROLES, type Role } from '@meterline/domain';
import { readStored, writeStored } from './storage';

const KEY = 'meterline:last-organization';
const ROLES_KEY = 'meterline:roles';

export function rememberOrganization(slug: string): void {
  writeStored(KEY, slug);
}

export function lastOrganization(): string | null {
  return readStored(KEY);
}

/** The placeholder slug of web routes, e.g. the card-setup return address /org/_/billing. */
export const PLACEHOLDER_SLUG = '_';

/**
 * Which organization `_` stands for: the one the user last visited, if they still belong to it,
 * otherwise their first one. Null when they belong to none.
 */
export function resolvePlaceholderSlug(
  memberOf: readonly { slug: string }[],
  lastVisited: string | null = lastOrganization(),
): string | null {
  if (lastVisited && memberOf.some((org) => org.slug === lastVisited)) return lastVisited;
  return memberOf[0]?.slug ?? null;
}

/**
 * The user's role in each organization as the profile last said, kept so that the next first load
 * starts only the reads the role allows (decided before the profile answers). A hint only: the server
 * decides, and a role that changed since costs one refused read or one read started later.
 */
export function rememberRoles(organizations: readonly { slug: string; role: Role }[]): void {
  const roles = Object.fromEntries(organizations.map((org) => [org.slug, org.role]));
  writeStored(ROLES_KEY, JSON.stringify(roles));
}

export function lastRole(slug: string): Role | null {
  try {
    const roles: unknown = JSON.parse(readStored(ROLES_KEY) ?? '{}');
    if (typeof roles !== 'object' || roles === null) return null;
    const role: unknown = (roles as Record<string, unknown>)[slug];
    return ROLES.find((known) => known === role) ?? null;
  } catch {
    return null;
  }
}
