import { projectSchema, type Project } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, isApiError, segment } from './api-client';
import { projectKeys } from './keys';

/**
 * GET /platform/projects/{ref}. A 402 means the project's organization is restricted; the error's
 * message is the server's explanation and is shown as is.
 */
export function getProject(ref: string, signal?: AbortSignal): Promise<Project> {
  return apiFetch(`/platform/projects/${segment(ref)}`, projectSchema, { signal });
}

export const projectQueryOptions = (ref: string) =>
  queryOptions({
    queryKey: projectKeys.detail(ref),
    queryFn: ({ signal }) => getProject(ref, signal),
  });

export function useProjectQuery(ref: string | undefined) {
  return useQuery({ ...projectQueryOptions(ref ?? ''), enabled: Boolean(ref) });
}

export function isRestrictedError(error: unknown): boolean {
  return isApiError(error, 402);
}
