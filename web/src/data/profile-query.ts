import { profileSchema, type Profile } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, isApiError } from './api-client';
import { profileKeys } from './keys';

/** GET /platform/profile. `null` means signed out: the API answers 401 without a session. */
export async function getProfile(signal?: AbortSignal): Promise<Profile | null> {
  try {
    return await apiFetch('/platform/profile', profileSchema, { signal });
  } catch (error) {
    if (isApiError(error, 401)) return null;
    throw error;
  }
}

export const profileQueryOptions = () =>
  queryOptions({
    queryKey: profileKeys.detail(),
    queryFn: ({ signal }) => getProfile(signal),
    staleTime: 5 * 60 * 1000,
  });

export function useProfileQuery() {
  return useQuery(profileQueryOptions());
}
