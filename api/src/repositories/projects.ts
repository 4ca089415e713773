import type { PlanId, Project, RestrictionData } from '@meterline/domain';
import type { Db } from '../db/database.ts';

function baseQuery(db: Db) {
  return db
    .selectFrom('projects')
    .innerJoin('organizations', 'organizations.id', 'projects.organization_id')
    .select([
      'projects.id',
      'projects.ref',
      'projects.name',
      'projects.status',
      'projects.compute_size',
      'projects.created_at',
      'projects.organization_id',
      'organizations.slug as organization_slug',
      'organizations.restriction_status',
    ]);
}

type ProjectQueryRow = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

function toProject(row: ProjectQueryRow): Project {
  return {
    id: row.id,
    ref: row.ref,
    name: row.name,
    organization_slug: row.organization_slug,
    status: row.status,
    compute_size: row.compute_size,
    inserted_at: Math.floor(row.created_at.getTime() / 1000),
  };
}

/** The id of one of the organization's projects, by ref; undefined for any other. */
export async function findProjectId(
  db: Db,
  organizationId: string,
  projectRef: string,
): Promise<string | undefined> {
  const project = await db
    .selectFrom('projects')
    .select('id')
    .where('ref', '=', projectRef)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return project?.id;
}

export async function listProjects(db: Db, organizationId: string): Promise<Project[]> {
  const rows = await baseQuery(db)
    .where('projects.organization_id', '=', organizationId)
    .orderBy('projects.ref')
    .execute();
  return rows.map(toProject);
}

/** A project of one of the user's organizations; `restriction` when that organization is restricted. */
export async function findProjectForUser(db: Db, ref: string, userId: string) {
  const row = await baseQuery(db)
    .innerJoin('memberships', 'memberships.organization_id', 'projects.organization_id')
    .leftJoin('subscriptions', 'subscriptions.organization_id', 'projects.organization_id')
    .select([
      'organizations.restriction_data',
      'subscriptions.plan_id',
      'subscriptions.usage_billing_enabled',
    ])
    .where('projects.ref', '=', ref)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return undefined;
  const data = row.restriction_data as RestrictionData | null;
  const restriction =
    row.restriction_status === 'restricted'
      ? {
          violations: data?.violations ?? [],
          planId: (row.plan_id ?? 'free') as PlanId,
          usageBillingEnabled: row.usage_billing_enabled ?? false,
        }
      : null;
  return { project: toProject(row), restriction };
}
