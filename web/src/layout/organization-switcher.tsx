import { DropdownMenu } from 'radix-ui';
import { Check, ChevronsUpDown, RotateCw } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useProfile } from '../session/profile-context';
import { Skeleton } from '../components/ui/skeleton';
import { useOrganizationsQuery } from '../data/organizations-query';
import { cn } from '../lib/cn';
import { menuContent, menuItem, menuLabel } from './menu-styles';
import { PlanBadge } from './plan-badge';
import { organizationSwitchPath } from './switch-path';

/** Lists the user's organizations; picking one keeps the current sub-page. */
export function OrganizationSwitcher({ currentSlug }: { currentSlug: string | undefined }) {
  const { pathname } = useLocation();
  const organizations = useOrganizationsQuery();
  const profile = useProfile();
  const current =
    organizations.data?.find((org) => org.slug === currentSlug) ??
    profile.organizations.find((org) => org.slug === currentSlug);

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger className="flex h-8 min-w-0 items-center gap-2 rounded-md px-2 text-sm font-medium transition-colors hover:bg-muted data-[state=open]:bg-muted">
        <span className="sr-only">Switch organization. Current organization: </span>
        <span className="max-w-[8.5rem] truncate sm:max-w-[16rem]">
          {current?.name ?? 'Organizations'}
        </span>
        {current ? <PlanBadge planId={current.plan.id} className="max-sm:hidden" /> : null}
        <ChevronsUpDown aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="start"
          sideOffset={8}
          className={cn(menuContent, 'w-72 max-w-[calc(100vw-1.5rem)]')}
        >
          <DropdownMenu.Label className={menuLabel}>Organizations</DropdownMenu.Label>
          <div className="max-h-80 overflow-y-auto">
            {organizations.isPending ? (
              <div role="status" className="space-y-1 p-2">
                <span className="sr-only">Loading organizations</span>
                <Skeleton className="h-5 w-full" />
                <Skeleton className="h-5 w-5/6" />
                <Skeleton className="h-5 w-4/6" />
              </div>
            ) : organizations.isError ? (
              <DropdownMenu.Item
                className={menuItem}
                onSelect={(event) => {
                  event.preventDefault();
                  void organizations.refetch();
                }}
              >
                <RotateCw aria-hidden className="text-muted-foreground" />
                Couldn't load organizations. Retry
              </DropdownMenu.Item>
            ) : (
              organizations.data.map((org) => {
                const selected = org.slug === currentSlug;
                return (
                  <DropdownMenu.Item key={org.slug} asChild className={menuItem}>
                    <Link
                      to={organizationSwitchPath(pathname, org.slug)}
                      aria-current={selected ? 'page' : undefined}
                    >
                      <span className="min-w-0 flex-1 truncate">{org.name}</span>
                      <PlanBadge planId={org.plan.id} />
                      <Check
                        aria-hidden
                        className={cn('text-primary', selected ? 'visible' : 'invisible')}
                      />
                    </Link>
                  </DropdownMenu.Item>
                );
              })
            )}
          </div>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
