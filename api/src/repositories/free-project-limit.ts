import {
  FREE_LIMIT_ROLES,
  isActiveProject,
  PROJECT_STATUSES,
  type FreeLimitCandidate,
} from '@meterline/domain';
import type { Db } from '../db/database.ts';

const ACTIVE_STATUSES = PROJECT_STATUSES.filter(isActiveProject);

/**
 * The organization's owners and administrators, each with the number of active projects in the Free
 * organizations they own or administer. The count looks beyond this organization on purpose: the limit
 * is the member's, across every organization they run (product-decisions §9); only members of this
 * organization are read.
 */
export async function freeLimitCandidates(
  db: Db,
  organizationId: string,
): Promise<FreeLimitCandidate[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select((eb) => [
      'users.name',
      'users.email',
      'users.free_project_limit',
      'memberships.role',
      eb
        .selectFrom('memberships as runs')
        .innerJoin('subscriptions', 'subscriptions.organization_id', 'runs.organization_id')
        .innerJoin('projects', 'projects.organization_id', 'runs.organization_id')
        .select((count) => count.fn.countAll<string | number>().as('count'))
        .whereRef('runs.user_id', '=', 'users.id')
        .where('runs.role', 'in', FREE_LIMIT_ROLES)
        .where('subscriptions.plan_id', '=', 'free')
        .where('projects.status', 'in', ACTIVE_STATUSES)
        .as('active_free_projects'),
    ])
    .where('memberships.organization_id', '=', organizationId)
    .where('memberships.role', 'in', FREE_LIMIT_ROLES)
    .orderBy('users.email')
    .execute();
  return rows.map((row) => ({
    username: row.name,
    primary_email: row.email,
    role: row.role,
    free_project_limit: row.free_project_limit,
    active_free_projects: Number(row.active_free_projects ?? 0),
  }));
}
