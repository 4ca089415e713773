import { Component, Suspense, useEffect, useRef, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from '../lib/router';
import { Logo } from '../components/logo';
import { SkipLink } from '../components/skip-link';
import { usePageTitle } from '../lib/page-title';
import { NotFoundScreen } from '../components/not-found-screen';
import { Button } from '../components/ui/button';
import { AppHeader } from '../layout/app-header';
import { PageSkeleton } from '../layout/page-skeleton';

/** A new page starts at its top (an anchor scrolls to its target instead; going back, the browser restores). */
function useScrollToTopOnNewPage() {
  const { pathname, hash } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    if (!hash) window.scrollTo(0, 0);
  }, [pathname, hash]);
}

export function RootLayout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  useScrollToTopOnNewPage();
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipLink />
      <RouteErrorBoundary pathname={pathname}>
        {/* A page whose code is still on its way shows the page's shape, never a blank screen. */}
        <Suspense
          fallback={
            <>
              <AppHeader loading />
              <PageSkeleton label="Loading page" />
            </>
          }
        >
          {children}
        </Suspense>
      </RouteErrorBoundary>
    </div>
  );
}

/** A render error anywhere below shows the error screen, until the user goes to another page. */
class RouteErrorBoundary extends Component<
  { pathname: string; children: ReactNode },
  { failed: boolean; pathname: string | null }
> {
  override state = { failed: false, pathname: null as string | null };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: { pathname: string },
    state: { failed: boolean; pathname: string | null },
  ) {
    // The error was on another page: this one renders afresh.
    if (state.pathname !== props.pathname) return { failed: false, pathname: props.pathname };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <RouteErrorScreen /> : this.props.children;
  }
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
  usePageTitle('Something went wrong');
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
