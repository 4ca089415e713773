import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiFetch, segment } from './api-client';
import { freeProjectLimitKeys } from './keys';

/**
 * One member who has reached their free project limit (product-decisions §9). Defined here because the
 * domain package has no schema for this endpoint yet: move it to the domain with the API route.
 */
export const freeLimitMemberSchema = z.object({
  username: z.nullable(z.string()),
  primary_email: z.nullable(z.string()),
  free_project_limit: z.number().check(z.int()),
});
export type FreeLimitMember = z.infer<typeof freeLimitMemberSchema>;

export const freeLimitMembersSchema = z.array(freeLimitMemberSchema);

/** GET /platform/organizations/{slug}/members/reached-free-project-limit */
export function getMembersAtFreeProjectLimit(
  orgSlug: string,
  signal?: AbortSignal,
): Promise<FreeLimitMember[]> {
  if (!orgSlug) throw new Error('Slug is required');
  return apiFetch(
    `/platform/organizations/${segment(orgSlug)}/members/reached-free-project-limit`,
    freeLimitMembersSchema,
    { signal },
  );
}

export const freeLimitMembersQueryOptions = (orgSlug: string) =>
  queryOptions({
    queryKey: freeProjectLimitKeys.detail(orgSlug),
    queryFn: ({ signal }) => getMembersAtFreeProjectLimit(orgSlug, signal),
  });

/** The members who block a downgrade to Free; asked only when that is the target. */
export function useFreeLimitMembersQuery(orgSlug: string, { enabled = true } = {}) {
  return useQuery({
    ...freeLimitMembersQueryOptions(orgSlug),
    enabled: enabled && Boolean(orgSlug),
  });
}
