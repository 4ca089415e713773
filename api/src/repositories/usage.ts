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
      INSERT INTO usage_events (event_id, organization_id, project_id, metric, resource, usage, occurred_at)
      SELECT * FROM unnest(
        ${events.map((event) => event.eventId)}::text[],
        ${events.map((event) => event.organizationId)}::uuid[],
        ${events.map((event) => event.projectId)}::uuid[],
        ${events.map((event) => event.metric)}::text[],
        ${events.map((event) => event.resource)}::text[],
        ${events.map((event) => event.usage)}::numeric[],
        ${events.map((event) => event.occurredAt.toISOString())}::timestamptz[]
      )
      ON CONFLICT (event_id) DO NOTHING
      RETURNING organization_id, project_id, metric, resource, usage, occurred_at
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
    )
    SELECT (SELECT count(*) FROM inserted)::int AS accepted, (SELECT count(*) FROM rolled)::int AS rolled
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

/** The cycle's usage per project, metric and resource, from the daily roll-up (periods start at midnight UTC). */
export async function cycleUsage(
  db: Db,
  organizationId: string,
  start: Date,
  end: Date,
): Promise<CycleUsageRow[]> {
  const result = await sql<CycleUsageRow>`
    SELECT project_id, metric, resource, sum(usage_sum)::text AS usage_sum,
           max(usage_max)::text AS usage_max, sum(samples)::int AS samples
    FROM usage_daily
    WHERE organization_id = ${organizationId}
      AND day >= (${start.toISOString()}::timestamptz AT TIME ZONE 'UTC')::date
      AND day < (${end.toISOString()}::timestamptz AT TIME ZONE 'UTC')::date
    GROUP BY project_id, metric, resource
  `.execute(db);
  return result.rows;
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
