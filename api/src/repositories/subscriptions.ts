import type { Db } from '../db/database.ts';

const COLUMNS = [
  'organization_id',
  'plan_id',
  'usage_billing_enabled',
  'billing_via_partner',
  'billing_partner',
  'payment_method_type',
  'billing_cycle_anchor',
  'current_period_start',
  'current_period_end',
  'customer_balance_cents',
  'billing_version',
  'late_usage_since',
  'scheduled_plan_id',
  'scheduled_usage_billing_enabled',
  'scheduled_at',
] as const;

export function getSubscription(db: Db, organizationId: string) {
  return db
    .selectFrom('subscriptions')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
}

/** The subscription, locked until the transaction ends: whoever closes a cycle holds this lock. */
export function lockSubscription(db: Db, organizationId: string) {
  return db
    .selectFrom('subscriptions')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/**
 * The subscription, locked until the transaction ends, or undefined at once when another transaction
 * holds its lock (FOR UPDATE SKIP LOCKED): a billing job running in several processes skips the
 * organizations another process is closing instead of queueing behind it.
 */
export function tryLockSubscription(db: Db, organizationId: string) {
  return db
    .selectFrom('subscriptions')
    .select(COLUMNS)
    .where('organization_id', '=', organizationId)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export type SubscriptionState = Awaited<ReturnType<typeof getSubscription>>;

/** Organizations whose cycle had ended by `endedBy`, for the closing job. */
export async function subscriptionsDue(db: Db, endedBy: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .select('organization_id')
    .where('current_period_end', '<=', endedBy)
    .orderBy('current_period_end')
    .execute();
  return rows.map((row) => row.organization_id);
}

/**
 * Every project of the organization in ref order, each with the add-ons it holds at `at` (one row per add-on,
 * or one row with `addon` null for a project without any): one statement for the subscription read.
 */
export function listProjectsWithAddonsNow(db: Db, organizationId: string, at: Date) {
  return db
    .selectFrom('projects')
    .leftJoin('project_addons', (join) =>
      join
        .onRef('project_addons.project_id', '=', 'projects.id')
        .on('project_addons.started_at', '<=', at)
        .on((eb) =>
          eb.or([
            eb('project_addons.ended_at', 'is', null),
            eb('project_addons.ended_at', '>', at),
          ]),
        ),
    )
    .select([
      'projects.ref',
      'projects.name',
      'projects.compute_size',
      'project_addons.addon',
      'project_addons.variant',
    ])
    .where('projects.organization_id', '=', organizationId)
    .orderBy('projects.ref')
    .execute();
}

/**
 * An organization has one subscription for its whole life (its row is keyed by the organization), so the
 * subscription's id is the organization's, prefixed: stable across plan changes, and never reused.
 */
export function subscriptionId(organizationId: string): string {
  return `sub_${organizationId.replaceAll('-', '')}`;
}
