import { useId, useState, type KeyboardEvent, type ReactElement } from 'react';
import type { OrganizationSummary } from '@meterline/domain';
import { Check, RotateCw, Search } from 'lucide-react';
import { Popover } from 'radix-ui';
import { Link, useLocation } from '../lib/router';
import type { IntentProps } from '../components/ui/on-intent';
import { Skeleton } from '../components/ui/skeleton';
import { useOrganizationsQuery } from '../data/organizations-query';
import { cn } from '../lib/cn';
import { menuContent, menuItem, menuLabel } from './menu-styles';
import { PlanBadge } from './plan-badge';
import { filterOrganizations, SWITCHER_FILTER_FROM } from './organization-filter';
import { organizationSwitchPath } from './switch-path';
import { useScrollEdges } from './use-scroll-edges';

/**
 * The switcher's popover, loaded on intent (./organization-switcher). Lists the user's organizations; picking one keeps the current sub-page. A popover rather than a
 * menu: it holds a filter field (a menu may hold only items) and links. The list scrolls past a
 * height that cuts its last row in half, and fades at an edge with more beyond it.
 */
export function OrganizationSwitcherPopover({
  currentSlug,
  trigger,
  defaultOpen,
  triggerRef,
}: IntentProps & {
  currentSlug: string | undefined;
  /** The switcher's trigger (./organization-switcher), which the popover opens from. */
  trigger: ReactElement;
}) {
  const { pathname } = useLocation();
  const organizations = useOrganizationsQuery();
  const [open, setOpen] = useState(defaultOpen);
  const [query, setQuery] = useState('');

  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setQuery('');
      }}
    >
      <Popover.Trigger asChild ref={triggerRef}>
        {trigger}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="start"
          sideOffset={8}
          collisionPadding={12}
          aria-label="Switch organization"
          className={cn(menuContent, 'w-72 max-w-[calc(100vw-1.5rem)] p-0')}
        >
          {organizations.isPending ? (
            <div role="status" className="space-y-1 p-3">
              <span className="sr-only">Loading organizations</span>
              <Skeleton className="h-5 w-full" />
              <Skeleton className="h-5 w-5/6" />
              <Skeleton className="h-5 w-4/6" />
            </div>
          ) : organizations.isError ? (
            <div className="p-1">
              <button
                type="button"
                className={cn(menuItem, 'w-full hover:bg-muted')}
                onClick={() => void organizations.refetch()}
              >
                <RotateCw aria-hidden className="text-muted-foreground" />
                Couldn't load organizations. Retry
              </button>
            </div>
          ) : (
            <OrganizationList
              organizations={organizations.data}
              currentSlug={currentSlug}
              query={query}
              onQueryChange={setQuery}
              hrefOf={(slug) => organizationSwitchPath(pathname, slug)}
              onPick={() => setOpen(false)}
            />
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}

/** Arrow keys move between the filter and the links, as in a menu; Tab works as everywhere. */
function moveFocus(event: KeyboardEvent<HTMLElement>, list: HTMLElement | null): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const links = [...(list?.querySelectorAll<HTMLElement>('a') ?? [])];
  if (links.length === 0) return;
  event.preventDefault();
  const index = links.indexOf(event.target as HTMLElement);
  const down = event.key === 'ArrowDown';
  if (index === -1) {
    links[down ? 0 : links.length - 1]?.focus();
    return;
  }
  const next = index + (down ? 1 : -1);
  if (next < 0) {
    list?.closest('[role="dialog"]')?.querySelector<HTMLElement>('input')?.focus();
    return;
  }
  links[Math.min(next, links.length - 1)]?.focus();
}

function OrganizationList({
  organizations,
  currentSlug,
  query,
  onQueryChange,
  hrefOf,
  onPick,
}: {
  organizations: readonly OrganizationSummary[];
  currentSlug: string | undefined;
  query: string;
  onQueryChange: (query: string) => void;
  hrefOf: (slug: string) => string;
  onPick: () => void;
}) {
  const filterId = useId();
  const countId = useId();
  const [list, setList] = useState<HTMLUListElement | null>(null);
  const withFilter = organizations.length >= SWITCHER_FILTER_FROM;
  const shown = filterOrganizations(organizations, withFilter ? query : '');
  const edges = useScrollEdges(list, shown.length);

  return (
    <div onKeyDown={(event) => moveFocus(event, list)}>
      {withFilter ? (
        <div className="relative border-b">
          <label htmlFor={filterId} className="sr-only">
            Find organization
          </label>
          <Search
            aria-hidden
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <input
            id={filterId}
            type="search"
            autoComplete="off"
            spellCheck={false}
            placeholder="Find organization…"
            value={query}
            onChange={(event) => onQueryChange(event.target.value)}
            aria-describedby={countId}
            className="h-10 w-full bg-transparent pr-3 pl-9 text-sm text-foreground outline-none placeholder:text-muted-foreground [&::-webkit-search-cancel-button]:hidden"
          />
        </div>
      ) : null}
      <div className="flex items-baseline justify-between px-3 pt-2 pb-1">
        <p className={cn(menuLabel, 'p-0')}>Organizations</p>
        <p id={countId} role="status" className="text-xs text-muted-foreground tabular-nums">
          {withFilter && query.trim()
            ? `${shown.length} of ${organizations.length}`
            : organizations.length > 1
              ? `${organizations.length}`
              : null}
        </p>
      </div>
      {shown.length === 0 ? (
        <p className="px-3 pt-1 pb-3 text-muted-foreground">
          No organization matches “{query.trim()}”.
        </p>
      ) : (
        <div className="relative">
          <ul
            ref={setList}
            aria-label="Organizations"
            // 9¾ rows: the row cut at the bottom, fading out, says that the list goes on.
            className="max-h-[19.75rem] overflow-y-auto overscroll-contain p-1"
          >
            {shown.map((org) => {
              const selected = org.slug === currentSlug;
              return (
                <li key={org.slug}>
                  <Link
                    to={hrefOf(org.slug)}
                    aria-current={selected ? 'page' : undefined}
                    onClick={onPick}
                    className={cn(
                      menuItem,
                      'hover:bg-muted focus-visible:bg-muted focus-visible:outline-offset-[-2px]',
                    )}
                  >
                    <span className="min-w-0 flex-1 truncate">{org.name}</span>
                    <PlanBadge planId={org.plan.id} />
                    <Check
                      aria-hidden
                      className={cn('text-primary', selected ? 'visible' : 'invisible')}
                    />
                  </Link>
                </li>
              );
            })}
          </ul>
          <ScrollFade edge="top" visible={edges.above} />
          <ScrollFade edge="bottom" visible={edges.below} />
        </div>
      )}
    </div>
  );
}

/** A shade over the list's edge while there is more to scroll to beyond it. */
function ScrollFade({ edge, visible }: { edge: 'top' | 'bottom'; visible: boolean }) {
  return (
    <div
      aria-hidden
      data-scroll-fade={edge}
      data-visible={visible || undefined}
      className={cn(
        'pointer-events-none absolute inset-x-0 h-12 from-popover to-transparent transition-opacity',
        edge === 'top' ? 'top-0 bg-gradient-to-b' : 'bottom-0 rounded-b-lg bg-gradient-to-t',
        visible ? 'opacity-100' : 'opacity-0',
      )}
    />
  );
}
