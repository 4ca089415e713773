import type { ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TooltipDelay } from '../../components/ui/tooltip';
import { Toaster } from 'sonner';
import { createQueryClient } from '../../data/query-client';

/**
 * What the app's providers give a feature (the query client, tooltips, the toaster), without importing
 * `app/`: a feature imports neither `app/` nor another feature, its tests included.
 */
export function TestProviders({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipDelay value={0}>
        {children}
        <Toaster closeButton />
      </TooltipDelay>
    </QueryClientProvider>
  );
}

/** The app's query client, but nothing goes stale and nothing retries unless a query says so. */
export function createTestQueryClient(): QueryClient {
  return createQueryClient({
    queries: { staleTime: Infinity, gcTime: Infinity, retry: false, retryOnMount: false },
  });
}
