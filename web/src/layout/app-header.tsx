import type { ReactNode } from 'react';
import { Logo } from '../components/logo';
import { Skeleton } from '../components/ui/skeleton';
import { UserMenu } from './user-menu';

function Divider() {
  return (
    <svg
      aria-hidden
      viewBox="0 0 16 24"
      className="h-6 w-4 shrink-0 fill-none stroke-border stroke-[1.5]"
    >
      <path d="M11 3 5 21" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The top bar: product name, an optional context (the organization switcher), the user menu, and
 * an optional navigation row. `userMenu` needs a signed-in profile above it.
 */
export function AppHeader({
  context,
  nav,
  userMenu = false,
  loading = false,
}: {
  context?: ReactNode;
  nav?: ReactNode;
  userMenu?: boolean;
  loading?: boolean;
}) {
  return (
    <header className="sticky top-0 z-30 border-b bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/85">
      <div className="mx-auto flex h-14 w-full max-w-6xl items-center gap-1.5 px-4 sm:gap-2 sm:px-6 lg:px-8">
        <Logo compact={Boolean(context) || loading} />
        {context || loading ? <Divider /> : null}
        {loading ? <Skeleton className="h-5 w-36" /> : context}
        <div className="ml-auto flex items-center gap-2 pl-2">
          {loading ? <Skeleton round className="size-8" /> : userMenu ? <UserMenu /> : null}
        </div>
      </div>
      {nav}
    </header>
  );
}
