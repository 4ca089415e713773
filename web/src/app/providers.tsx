import { lazy, Suspense, useSyncExternalStore, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useTheme } from '../lib/theme';
import { loadSonner, useToasterWanted } from '../lib/toast';

// Mounted with the first toast (lib/toast): the page loads without sonner.
const Toaster = lazy(async () => ({ default: (await loadSonner()).Toaster }));

/** Phones (below Tailwind's `sm`): a toast at the bottom would cover a dialog's main action. */
const NARROW_QUERY = '(max-width: 639px)';

function subscribeNarrow(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const media = window.matchMedia(NARROW_QUERY);
  media.addEventListener('change', onChange);
  return () => media.removeEventListener('change', onChange);
}

function isNarrow(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(NARROW_QUERY).matches;
}

function ThemedToaster() {
  const { theme } = useTheme();
  const narrow = useSyncExternalStore(subscribeNarrow, isNarrow, () => false);
  const wanted = useToasterWanted();
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toaster theme={theme} position={narrow ? 'top-center' : 'bottom-right'} closeButton />
    </Suspense>
  );
}

/** Everything the app needs around its routes; tests render the same providers. */
export function AppProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <ThemedToaster />
    </QueryClientProvider>
  );
}
