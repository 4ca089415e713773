import { lazy } from 'react';
import type { OrganizationSummary } from '@meterline/domain';
import { ChevronsUpDown } from 'lucide-react';
import { OnIntent } from '../components/ui/on-intent';
import { useOrganizationsQuery } from '../data/organizations-query';
import { useProfile } from '../session/profile-context';
import { PlanBadge } from './plan-badge';

const loadPopover = () => import('./organization-switcher-popover');
const OrganizationSwitcherPopover = lazy(async () => ({
  default: (await loadPopover()).OrganizationSwitcherPopover,
}));

const TRIGGER_CLASS =
  'flex h-8 min-w-0 items-center gap-2 rounded-md px-2 text-sm font-medium transition-colors hover:bg-muted data-[state=open]:bg-muted';

/** From this many organizations on, the list has a filter: fewer are read at a glance. */
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

/**
 * Lists the user's organizations; picking one keeps the current sub-page. A popover rather than a
 * menu: it holds a filter field (a menu may hold only items) and links. The list scrolls past a
 * height that cuts its last row in half, and fades at an edge with more beyond it.
 */
export function OrganizationSwitcher({ currentSlug }: { currentSlug: string | undefined }) {
  const organizations = useOrganizationsQuery();
  const profile = useProfile();
  const current =
    organizations.data?.find((org) => org.slug === currentSlug) ??
    profile.organizations.find((org) => org.slug === currentSlug);
  const label = (
    <>
      <span className="sr-only">Switch organization. Current organization: </span>
      <span className="max-w-[8.5rem] truncate sm:max-w-[16rem]">
        {current?.name ?? 'Organizations'}
      </span>
      {current ? <PlanBadge planId={current.plan.id} className="max-sm:hidden" /> : null}
      <ChevronsUpDown aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
    </>
  );
  return (
    <OnIntent
      load={loadPopover}
      standIn={(props) => (
        <button
          type="button"
          aria-haspopup="dialog"
          aria-expanded={false}
          data-state="closed"
          className={TRIGGER_CLASS}
          {...props}
        >
          {label}
        </button>
      )}
    >
      {(intent) => (
        <OrganizationSwitcherPopover
          {...intent}
          currentSlug={currentSlug}
          triggerClassName={TRIGGER_CLASS}
        >
          {label}
        </OrganizationSwitcherPopover>
      )}
    </OnIntent>
  );
}
