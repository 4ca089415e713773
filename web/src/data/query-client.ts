import { MutationCache, QueryClient, type DefaultOptions } from '@tanstack/react-query';
import { ApiError, ResponseShapeError } from './api-client';
import { invalidateAfterMutation } from './invalidation';

/** 4xx answers and contract errors are final; network failures and 5xx get two more tries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ResponseShapeError) return false;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
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
      queries: { retry: shouldRetry, ...defaultOptions.queries },
      mutations: { retry: false, ...defaultOptions.mutations },
    },
  });
  return queryClient;
}
