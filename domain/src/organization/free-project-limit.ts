import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import type { Role } from '../permissions/roles.ts';
import type { PlanId } from './plans.ts';
import { isActiveProject, type ProjectStatus } from './projects.ts';

/**
 * The free project limit (product-decisions §9): each user may have this many active free-plan projects
 * across the organizations they own or administer. A downgrade to Free is refused while an owner or
 * administrator of the organization has reached theirs.
 */
export const DEFAULT_FREE_PROJECT_LIMIT = 2;

/** The roles whose free projects count, and whose limit can block a downgrade. */
export const FREE_LIMIT_ROLES = ['owner', 'administrator'] as const satisfies readonly Role[];

export function countsForFreeLimit(role: Role): boolean {
  return (FREE_LIMIT_ROLES as readonly Role[]).includes(role);
}

/** A project counts when it runs (active or coming up) in an organization on the Free plan. */
export function isActiveFreeProject(project: { status: ProjectStatus; planId: PlanId }): boolean {
  return project.planId === 'free' && isActiveProject(project.status);
}

/** Reached means no further free project may start: the count has met the limit (or passed it). */
export function hasReachedFreeProjectLimit(activeFreeProjects: number, limit: number): boolean {
  return activeFreeProjects >= limit;
}

export const freeLimitMemberSchema = documented(
  z.object({
    username: z.string(),
    primary_email: z.string(),
    free_project_limit: z.number().check(z.int()).check(z.gte(0)),
  }),
  { id: 'FreeLimitMember' },
);
export type FreeLimitMember = z.infer<typeof freeLimitMemberSchema>;

export const freeLimitMembersSchema = documented(z.array(freeLimitMemberSchema), {
  id: 'FreeLimitMembers',
});

/** A member of the organization, with the count of active free projects where they own or administer. */
export interface FreeLimitCandidate {
  username: string;
  primary_email: string;
  role: Role;
  free_project_limit: number;
  active_free_projects: number;
}

/** The owners and administrators who have reached their limit, by email: the members modal's list. */
export function reachedFreeProjectLimit(
  candidates: readonly FreeLimitCandidate[],
): FreeLimitMember[] {
  return candidates
    .filter(
      (member) =>
        countsForFreeLimit(member.role) &&
        hasReachedFreeProjectLimit(member.active_free_projects, member.free_project_limit),
    )
    .map(({ username, primary_email, free_project_limit }) => ({
      username,
      primary_email,
      free_project_limit,
    }))
    .sort((a, b) => a.primary_email.localeCompare(b.primary_email));
}
