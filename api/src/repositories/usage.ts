import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export interface ResolvedEvent {
  eventId: string;
  organizationId: string;
  projectId: string;
  metric: string;
  resource: string;
  usage: string;
  occurredAt: Date;
  cycleStart: Date | null;
}

export async function projectsByRef(db: Db, refs: readonly string[]) {
  if (refs.length === 0) return new Map<string, { id: string; organizationId: string }>();
  const rows = await db
    .selectFrom('projects')
    .select(['id', 'organization_id', 'ref'])
    .where('ref', 'in', [...refs])
    .execute();
  return new Map(rows.map((row) => [row.ref, { id: row.id, organizationId: row.organization_id }]));
}

/**
 * Stores the raw events and adds them to the daily roll-up in one statement: events already seen are
 * skipped and not counted twice.
 */
export async function insertUsageEvents(db: Db, events: readonly ResolvedEvent[]): Promise<number> {
  if (events.length === 0) return 0;
  const result = await sql<{ accepted: number }>`
    WITH inserted AS (
      INSERT INTO usage_events
        (event_id, organization_id, project_id, metric, resource, usage, occurred_at, cycle_start)
      SELECT * FROM unnest(
        ${events.map((event) => event.eventId)}::text[],
        ${events.map((event) => event.organizationId)}::uuid[],
        ${events.map((event) => event.projectId)}::uuid[],
        ${events.map((event) => event.metric)}::text[],
        ${events.map((event) => event.resource)}::text[],
        ${events.map((event) => event.usage)}::numeric[],
        ${events.map((event) => event.occurredAt.toISOString())}::timestamptz[],
        ${events.map((event) => event.cycleStart?.toISOString() ?? null)}::timestamptz[]
      )
      ON CONFLICT (event_id) DO NOTHING
      RETURNING organization_id, project_id, metric, resource, usage, occurred_at, cycle_start
    ),
    cycled AS (
      INSERT INTO usage_cycle AS cycle
        (organization_id, cycle_start, metric, project_id, resource, usage_sum, usage_max, samples)
      SELECT organization_id, cycle_start, metric, project_id, resource, sum(usage), max(usage), count(*)::int
      FROM inserted
      WHERE cycle_start IS NOT NULL
      GROUP BY 1, 2, 3, 4, 5
      ON CONFLICT (organization_id, cycle_start, metric, project_id, resource) DO UPDATE
        SET usage_sum = cycle.usage_sum + EXCLUDED.usage_sum,
            usage_max = greatest(cycle.usage_max, EXCLUDED.usage_max),
            samples = cycle.samples + EXCLUDED.samples
      RETURNING 1
    ),
    rolled AS (
      INSERT INTO usage_daily AS daily
        (organization_id, day, metric, project_id, resource, usage_sum, usage_max, samples)
      SELECT organization_id, (occurred_at AT TIME ZONE 'UTC')::date, metric, project_id, resource,
             sum(usage), max(usage), count(*)::int
      FROM inserted
      GROUP BY 1, 2, 3, 4, 5
      ON CONFLICT (organization_id, day, metric, project_id, resource) DO UPDATE
        SET usage_sum = daily.usage_sum + EXCLUDED.usage_sum,
            usage_max = greatest(daily.usage_max, EXCLUDED.usage_max),
            samples = daily.samples + EXCLUDED.samples
      RETURNING 1
    ),
    bumped AS (
      UPDATE subscriptions SET billing_version = billing_version + 1
      WHERE organization_id IN (SELECT DISTINCT organization_id FROM inserted)
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM inserted)::int AS accepted,
           (SELECT count(*) FROM bumped)::int AS bumped,
           (SELECT count(*) FROM rolled)::int AS rolled,
           (SELECT count(*) FROM cycled)::int AS cycled
  `.execute(db);
  return result.rows[0]?.accepted ?? 0;
}

export interface CycleUsageRow {
  project_id: string;
  metric: string;
  resource: string;
  usage_sum: string;
  usage_max: string;
  samples: number;
}

/** The usage of the cycle that started at `start`, per project, metric and resource. */
export async function cycleUsage(
  db: Db,
  organizationId: string,
  start: Date,
): Promise<CycleUsageRow[]> {
  const rows = await db
    .selectFrom('usage_cycle')
    .select(['project_id', 'metric', 'resource', 'usage_sum', 'usage_max', 'samples'])
    .where('organization_id', '=', organizationId)
    .where('cycle_start', '=', start)
    .execute();
  return rows.map((row) => ({
    ...row,
    usage_sum: String(row.usage_sum),
    usage_max: String(row.usage_max),
  }));
}

export interface DailyUsageRow {
  day: string;
  metric: string;
  project_id: string;
  usage_sum: string;
  usage_max: string;
  samples: number;
}

export async function dailyUsage(
  db: Db,
  organizationId: string,
  startDay: string,
  endDay: string,
  projectId: string | null,
): Promise<DailyUsageRow[]> {
  const result = await sql<DailyUsageRow>`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, metric, project_id,
           sum(usage_sum)::text AS usage_sum, max(usage_max)::text AS usage_max,
           sum(samples)::int AS samples
    FROM usage_daily
    WHERE organization_id = ${organizationId}
      AND day >= ${startDay}::date AND day <= ${endDay}::date
      ${projectId ? sql`AND project_id = ${projectId}` : sql``}
    GROUP BY day, metric, project_id
    ORDER BY day
  `.execute(db);
  return result.rows;
}

/** Each organization's billing cycle anchor, in unix seconds. */
export async function billingAnchors(db: Db, organizationIds: readonly string[]) {
  if (organizationIds.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom('subscriptions')
    .select(['organization_id', 'billing_cycle_anchor'])
    .where('organization_id', 'in', [...organizationIds])
    .execute();
  return new Map(
    rows.map((row) => [row.organization_id, Math.floor(row.billing_cycle_anchor.getTime() / 1000)]),
  );
}
