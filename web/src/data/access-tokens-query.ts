import { accessTokenListSchema, type AccessToken } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { accessTokenKeys } from './keys';

/** GET /platform/organizations/{slug}/tokens: the live tokens, newest first. Owners and admins. */
export async function getAccessTokens(slug: string, signal?: AbortSignal): Promise<AccessToken[]> {
  const { tokens } = await apiFetch(
    `/platform/organizations/${segment(slug)}/tokens`,
    accessTokenListSchema,
    { signal },
  );
  return tokens;
}

export const accessTokensQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: accessTokenKeys.list(slug),
    queryFn: ({ signal }) => getAccessTokens(slug, signal),
  });

export function useAccessTokensQuery(slug: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...accessTokensQueryOptions(slug), enabled: enabled && Boolean(slug) });
}
