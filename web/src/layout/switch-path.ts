/**
 * Where switching to another organization leads: the same sub-page of the new organization
 * (/org/a/billing -> /org/b/billing), or its home from pages that are not organization pages.
 * Query strings and anchors belong to the old organization and are dropped.
 */
export function organizationSwitchPath(pathname: string, targetSlug: string): string {
  const match = /^\/(org|organization)\/[^/]+(\/.*)?$/.exec(pathname);
  const slug = encodeURIComponent(targetSlug);
  if (!match) return `/org/${slug}`;
  const rest = (match[2] ?? '').replace(/\/+$/, '');
  return `/${match[1]}/${slug}${rest}`;
}
