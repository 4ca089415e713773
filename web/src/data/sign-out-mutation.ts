import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiFetch } from './api-client';
import { mutationKeys } from './invalidation';

/** POST /platform/auth/sign-out -> 204 */
export function signOut(): Promise<void> {
  return apiFetch('/platform/auth/sign-out', z.void(), { method: 'POST' });
}

export function useSignOutMutation() {
  return useMutation({ mutationKey: mutationKeys.signOut, mutationFn: signOut });
}
