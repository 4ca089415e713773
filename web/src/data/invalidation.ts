import type { QueryClient } from '@tanstack/react-query';
import { resetCsrfToken } from './api-client';
import { profileKeys } from './keys';

/** Mutation keys: the MutationCache looks these up to know what a success makes stale. */
export const mutationKeys = {
  signIn: ['auth', 'sign-in'] as const,
  signOut: ['auth', 'sign-out'] as const,
};

type MutationName = keyof typeof mutationKeys;

/**
 * What each mutation makes stale, in one place. Every new mutation adds its line here instead of
 * invalidating from its component.
 */
const AFTER_SUCCESS: Record<MutationName, (queryClient: QueryClient) => Promise<void>> = {
  // A new session: nothing cached for the previous one may be shown, and the profile is refetched.
  signIn: async (queryClient) => {
    queryClient.removeQueries({
      predicate: (query) => query.queryKey[0] !== profileKeys.all[0],
    });
    await queryClient.invalidateQueries({ queryKey: profileKeys.all });
  },
  // The session is gone: drop every cached answer and the CSRF token that belonged to it.
  signOut: async (queryClient) => {
    resetCsrfToken();
    await queryClient.cancelQueries();
    queryClient.removeQueries();
  },
};

function nameOf(mutationKey: readonly unknown[] | undefined): MutationName | undefined {
  if (!mutationKey) return undefined;
  return (Object.keys(mutationKeys) as MutationName[]).find(
    (name) => JSON.stringify(mutationKeys[name]) === JSON.stringify(mutationKey),
  );
}

export async function invalidateAfterMutation(
  queryClient: QueryClient,
  mutationKey: readonly unknown[] | undefined,
): Promise<void> {
  const name = nameOf(mutationKey);
  if (name) await AFTER_SUCCESS[name](queryClient);
}
