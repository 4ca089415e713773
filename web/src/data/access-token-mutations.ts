import { accessTokenCreatedSchema, type AccessTokenCreate } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

const base = (slug: string) => `/platform/organizations/${segment(slug)}/tokens`;

/** POST /tokens {name, expires_in_days}: the new token, answered this once. */
export function useCreateAccessTokenMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.createAccessToken,
    mutationFn: (body: AccessTokenCreate) =>
      apiFetch(base(slug), accessTokenCreatedSchema, { method: 'POST', body }),
  });
}

/** DELETE /tokens/{id}: revokes the token; its next request is refused. */
export function useRevokeAccessTokenMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.revokeAccessToken,
    mutationFn: (id: string) =>
      apiFetch(`${base(slug)}/${segment(id)}`, z.unknown(), { method: 'DELETE' }).then(() => null),
  });
}
