import { Suspense, useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useParams } from '../lib/router';
import { useProfile } from '../session/profile-context';
import { ErrorState } from '../components/error-state';
import { NotFoundScreen } from '../components/not-found-screen';
import { isApiError } from '../data/api-client';
import { useOrganizationQuery } from '../data/organization-query';
import {
  PLACEHOLDER_SLUG,
  rememberOrganization,
  rememberRoles,
  resolvePlaceholderSlug,
} from '../lib/last-organization';
import { AppHeader } from '../layout/app-header';
import { OrganizationNav } from '../layout/organization-nav';
import { OrganizationSwitcher } from '../layout/organization-switcher';
import { PageSkeleton } from '../layout/page-skeleton';
import { RestrictionBanner } from '../features/restriction-banner/restriction-banner';
import { ManagedByBanner } from '../features/organization/managed-by-banner';
import { NoOrganizations } from '../features/organization/no-organizations';
import { OrganizationContext } from '../session/use-organization';

/** /org/_/billing -> /org/acme-pro/billing, keeping the query string and anchor. */
function withSlug(pathname: string, slug: string): string {
  return pathname.replace(
    /^\/(org|organization)\/_(?=\/|$)/,
    (_match, prefix: string) => `/${prefix}/${encodeURIComponent(slug)}`,
  );
}

/**
 * The frame of every organization page: top bar, tabs, the partner banner, and the page. Pages
 * render only once the organization has loaded, and read it with useOrganization().
 */
export function OrganizationLayout({ children }: { children: ReactNode }) {
  const { slug = '' } = useParams();
  const location = useLocation();
  const profile = useProfile();
  const isPlaceholder = slug === PLACEHOLDER_SLUG;
  const organization = useOrganizationQuery(isPlaceholder ? undefined : slug);
  const loadedSlug = organization.data?.slug;

  useEffect(() => {
    if (loadedSlug) rememberOrganization(loadedSlug);
  }, [loadedSlug]);
  useEffect(() => {
    rememberRoles(profile.organizations);
  }, [profile.organizations]);

  if (isPlaceholder) {
    const resolved = resolvePlaceholderSlug(profile.organizations);
    if (!resolved) return <NoOrganizations />;
    return (
      <Navigate
        replace
        to={{
          pathname: withSlug(location.pathname, resolved),
          search: location.search,
          hash: location.hash,
        }}
      />
    );
  }

  const switcher = <OrganizationSwitcher currentSlug={slug} />;

  if (organization.data === undefined) {
    if (isApiError(organization.error, 404)) {
      return (
        <>
          <AppHeader userMenu context={switcher} />
          <NotFoundScreen />
        </>
      );
    }
    return (
      <>
        <AppHeader userMenu context={switcher} nav={<OrganizationNav slug={slug} />} />
        {organization.isError ? (
          <main
            id="main"
            className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10 lg:px-8"
          >
            <ErrorState
              title="Failed to load this organization"
              error={organization.error}
              onRetry={() => void organization.refetch()}
            />
          </main>
        ) : (
          <PageSkeleton label="Loading organization" />
        )}
      </>
    );
  }

  return (
    <>
      <AppHeader userMenu context={switcher} nav={<OrganizationNav slug={slug} />} />
      <ManagedByBanner organization={organization.data} />
      <RestrictionBanner organization={organization.data} />
      <main
        id="main"
        className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10 lg:px-8"
      >
        <OrganizationContext value={organization.data}>
          <Suspense fallback={null}>{children}</Suspense>
        </OrganizationContext>
      </main>
    </>
  );
}
