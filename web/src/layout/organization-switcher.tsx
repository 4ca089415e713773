import { lazy, type ComponentProps } from 'react';
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
  // One trigger, drawn here: the stand-in until the popover has loaded, then the popover's own.
  const trigger = (props: ComponentProps<'button'> & { 'data-state'?: string }) => (
    <button type="button" aria-haspopup="dialog" className={TRIGGER_CLASS} {...props}>
      <span className="sr-only">Switch organization. Current organization: </span>
      <span className="max-w-[8.5rem] truncate sm:max-w-[16rem]">
        {current?.name ?? 'Organizations'}
      </span>
      {current ? <PlanBadge planId={current.plan.id} className="max-sm:hidden" /> : null}
      <ChevronsUpDown aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
    </button>
  );
  return (
    <OnIntent
      load={loadPopover}
      standIn={(props) => trigger({ 'aria-expanded': false, 'data-state': 'closed', ...props })}
    >
      {(intent) => (
        <OrganizationSwitcherPopover {...intent} currentSlug={currentSlug} trigger={trigger({})} />
      )}
    </OnIntent>
  );
}
