import { readStored, writeStored } from './storage';

const KEY = 'meterline:last-organization';

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
