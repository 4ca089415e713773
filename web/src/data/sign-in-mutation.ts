import { signInResponseSchema, type SignInBody, type SignInResponse } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * POST /platform/auth/sign-in. Wrong credentials answer 401 "Invalid email or password"; too many
 * failures answer 429 with Retry-After (on the ApiError as `retryAfterSeconds`).
 */
export function signIn(body: SignInBody): Promise<SignInResponse> {
  return apiFetch('/platform/auth/sign-in', signInResponseSchema, { method: 'POST', body });
}

export function useSignInMutation() {
  return useMutation({ mutationKey: mutationKeys.signIn, mutationFn: signIn });
}
