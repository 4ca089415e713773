import { signInResponseSchema, type SignInBody, type SignInResponse } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, resetCsrfToken } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * POST /platform/auth/sign-in. Wrong credentials answer 401 "Invalid email or password"; too many
 * failures answer 429 with Retry-After (on the ApiError as `retryAfterSeconds`).
 */
export async function signIn(body: SignInBody): Promise<SignInResponse> {
  const response = await apiFetch('/platform/auth/sign-in', signInResponseSchema, {
    method: 'POST',
    body,
  });
  // Sign-in renews the CSRF secret: the token of the old one would only earn the next write a refusal.
  resetCsrfToken();
  return response;
}

export function useSignInMutation() {
  return useMutation({ mutationKey: mutationKeys.signIn, mutationFn: signIn });
}
