import { Outlet, ScrollRestoration, isRouteErrorResponse, useRouteError } from 'react-router';
import { Logo } from '../components/logo';
import { SkipLink } from '../components/skip-link';
import { usePageTitle } from '../lib/page-title';
import { NotFoundScreen } from '../components/not-found-screen';
import { Button } from '../components/ui/button';

export function RootLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <Outlet />
      <ScrollRestoration />
    </div>
  );
}

function MinimalHeader() {
  return (
    <header className="border-b bg-card">
      <div className="mx-auto flex h-14 w-full max-w-6xl items-center px-4 sm:px-6 lg:px-8">
        <Logo />
      </div>
    </header>
  );
}

/** Unknown routes, outside any session check: the same screen for everyone. */
export function NotFoundPage() {
  return (
    <>
      <MinimalHeader />
      <NotFoundScreen />
    </>
  );
}

/** Last resort for a render error: say so plainly and offer a reload. */
export function RouteErrorScreen() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  usePageTitle(notFound ? 'Page not found' : 'Something went wrong');
  if (notFound) {
    return (
      <div className="flex min-h-dvh flex-col">
        <NotFoundPage />
      </div>
    );
  }
  console.error(error);
  return (
    <div className="flex min-h-dvh flex-col">
      <MinimalHeader />
      <main id="main" className="flex flex-1 items-center justify-center px-6 py-24">
        <div className="max-w-sm text-center">
          <h1 className="text-xl font-semibold tracking-tight">Something went wrong</h1>
          <p className="mt-2 text-muted-foreground">
            The page failed to load. Reloading usually helps; if it keeps happening, let us know.
          </p>
          <Button variant="primary" className="mt-6" onClick={() => window.location.reload()}>
            Reload page
          </Button>
        </div>
      </main>
    </div>
  );
}
