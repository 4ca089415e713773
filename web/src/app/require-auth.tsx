import type { ReactNode } from 'react';
import { Navigate, useLocation } from '../lib/router';
import { ErrorState } from '../components/error-state';
import { useProfileQuery } from '../data/profile-query';
import { signInPath } from '../lib/return-to';
import { AppHeader } from '../layout/app-header';
import { PageSkeleton } from '../layout/page-skeleton';
import { ProfileContext } from '../session/profile-context';

/** Routes below need a session: without one the user goes to /sign-in and comes back after. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const profile = useProfileQuery();

  if (profile.data === undefined) {
    if (profile.isError) {
      return (
        <>
          <AppHeader />
          <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-10 sm:px-6 lg:px-8">
            <ErrorState
              title="Failed to load your profile"
              error={profile.error}
              onRetry={() => void profile.refetch()}
            />
          </main>
        </>
      );
    }
    return (
      <>
        <AppHeader loading />
        <PageSkeleton label="Loading your profile" />
      </>
    );
  }

  if (profile.data === null) {
    const returnTo = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate replace to={signInPath(returnTo)} />;
  }

  return <ProfileContext value={profile.data}>{children}</ProfileContext>;
}
