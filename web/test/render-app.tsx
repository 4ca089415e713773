import type { Organization, OrganizationSummary, Profile, Project } from '@meterline/domain';
import type { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppProviders } from '../src/app/providers';
import { AppRoutes, LAZY_PAGES } from '../src/app/routes';
import { ApiError } from '../src/data/api-client';
import { organizationKeys, profileKeys, projectKeys } from '../src/data/keys';
import { createQueryClient } from '../src/data/query-client';
import { createMemoryHistory, Router } from '../src/lib/router';

/**
 * The app's own query client, but nothing goes stale and nothing retries: what a test put in the
 * cache is what the screens show. Unseeded requests fail (jsdom has no server), which is fine for
 * data a test does not look at.
 */
export function createTestQueryClient(): QueryClient {
  return createQueryClient({
    queries: { staleTime: Infinity, gcTime: Infinity, retry: false, retryOnMount: false },
  });
}

export interface Seed {
  profile: Profile | null;
  organizations?: OrganizationSummary[];
  organization?: Organization | Organization[];
  projects?: Record<string, Project[]>;
  /** Slugs whose detail request answered 404 {"message":"Organization not found"}. */
  missingOrganizations?: string[];
}

export function seedCache(queryClient: QueryClient, seed: Seed): void {
  queryClient.setQueryData(profileKeys.detail(), seed.profile);
  if (seed.organizations) queryClient.setQueryData(organizationKeys.list(), seed.organizations);
  const details = seed.organization
    ? Array.isArray(seed.organization)
      ? seed.organization
      : [seed.organization]
    : [];
  for (const org of details) queryClient.setQueryData(organizationKeys.detail(org.slug), org);
  for (const [slug, projects] of Object.entries(seed.projects ?? {})) {
    queryClient.setQueryData(projectKeys.list(slug), projects);
  }
  for (const slug of seed.missingOrganizations ?? []) {
    const query = queryClient.getQueryCache().build(queryClient, {
      queryKey: organizationKeys.detail(slug),
    });
    query.setState({
      status: 'error',
      error: new ApiError(404, 'Organization not found'),
      fetchStatus: 'idle',
    });
  }
}

// The app fetches a page's chunk when it is first shown; the tests fetch them all up front, so that
// every page renders at once (as everything else does).
await Promise.all(LAZY_PAGES.map((page) => page.preload()));

/** Renders the whole app (real routes, real providers) at `path`. */
export function renderApp(path: string, queryClient: QueryClient) {
  const router = createMemoryHistory(path);
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <Router history={router}>
        <AppRoutes />
      </Router>
    </AppProviders>,
  );
  return { ...view, router, user };
}
