import { MutationCache, QueryClient, type DefaultOptions, type Query } from '@tanstack/react-query';
import { ApiError, ResponseShapeError } from './api-client';
import { invalidateAfterMutation } from './invalidation';

/** 4xx answers and contract errors are final; network failures and 5xx get two more tries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ResponseShapeError) return false;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

/**
 * How long an answer counts as just read: a component that mounts in this time (the first load's reads
 * arrive before the sections that show them render) takes it instead of asking again. An answer made stale
 * by a write (invalidated) is asked again at once, as always.
 */
export const JUST_READ_MS = 5_000;

/** Whether a component mounting now fetches its query again (when it is stale, TanStack's own rule). */
export function refetchOnMount(query: Query): boolean {
  if (query.state.isInvalidated) return true;
  return Date.now() - query.state.dataUpdatedAt > JUST_READ_MS;
}

export function createQueryClient(defaultOptions: DefaultOptions = {}): QueryClient {
  // The cache needs the client and the client needs the cache: the closure reads it after creation.
  const queryClient: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onSuccess: (_data, _variables, _context, mutation) =>
        invalidateAfterMutation(queryClient, mutation.options.mutationKey),
    }),
    defaultOptions: {
      ...defaultOptions,
      queries: { retry: shouldRetry, refetchOnMount, ...defaultOptions.queries },
      mutations: { retry: false, ...defaultOptions.mutations },
    },
  });
  return queryClient;
}
