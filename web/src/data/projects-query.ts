import { projectSchema, type Project } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiFetch, segment } from './api-client';
import { projectKeys } from './keys';

const projectsSchema = z.array(projectSchema);

/** GET /platform/organizations/{slug}/projects */
export function getProjects(orgSlug: string, signal?: AbortSignal): Promise<Project[]> {
  return apiFetch(`/platform/organizations/${segment(orgSlug)}/projects`, projectsSchema, {
    signal,
  });
}

export const projectsQueryOptions = (orgSlug: string) =>
  queryOptions({
    queryKey: projectKeys.list(orgSlug),
    queryFn: ({ signal }) => getProjects(orgSlug, signal),
  });

export function useProjectsQuery(orgSlug: string | undefined) {
  return useQuery({ ...projectsQueryOptions(orgSlug ?? ''), enabled: Boolean(orgSlug) });
}
