import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export interface ResolvedEvent {
  eventId: string;
  organizationId: string;
  projectId: string;
  metric: string;
  resource: string;
  usage: string;
  /** Unix seconds, as reported. */
  timestamp: number;
  cycleStart: Date | null;
}

/**
 * The distinct values of one column of a batch, and each row's 1-based position among them. A batch of
 * thousands of events names a few projects, metrics and cycles: sending each value once and a small integer
 * per row spares the database parsing the same UUIDs and timestamps thousands of times (most of an insert's
 * cost on the embedded database).
 */
class Dictionary<T, K = string> {
  readonly values: T[] = [];
  private readonly positions = new Map<K, number>();

  positionOf(key: K, value: T): number {
    let position = this.positions.get(key);
    if (position === undefined) {
      position = this.values.push(value);
      this.positions.set(key, position);
    }
    return position;
  }
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
  const projects = new Dictionary<{ projectId: string; organizationId: string }>();
  const metrics = new Dictionary<string>();
  const resources = new Dictionary<string>();
  // Keyed by the Date itself: the events of one cycle share one (see the ingestion's cycle finder).
  const cycles = new Dictionary<Date, Date>();
  const ids: string[] = [];
  const projectAt: number[] = [];
  const metricAt: number[] = [];
  const resourceAt: number[] = [];
  const usages: string[] = [];
  const timestamps: number[] = [];
  const cycleAt: (number | null)[] = [];
  for (const event of events) {
    ids.push(event.eventId);
    projectAt.push(projects.positionOf(event.projectId, event));
    metricAt.push(metrics.positionOf(event.metric, event.metric));
    resourceAt.push(resources.positionOf(event.resource, event.resource));
    usages.push(event.usage);
    timestamps.push(event.timestamp);
    const { cycleStart } = event;
    cycleAt.push(cycleStart === null ? null : cycles.positionOf(cycleStart, cycleStart));
  }
  const store = (skippingStored: boolean) => sql<{ accepted: number }>`
    WITH inserted AS (
      INSERT INTO usage_events
        (event_id, organization_id, project_id, metric, resource, usage, occurred_at, cycle_start)
      SELECT event.id,
             (${projects.values.map((project) => project.organizationId)}::uuid[])[event.project],
             (${projects.values.map((project) => project.projectId)}::uuid[])[event.project],
             (${metrics.values}::text[])[event.metric],
             (${resources.values}::text[])[event.resource],
             event.usage,
             to_timestamp(event.at),
             (${cycles.values.map((start) => start.toISOString())}::timestamptz[])[event.cycle]
      FROM unnest(
        ${ids}::text[],
        ${projectAt}::int4[],
        ${metricAt}::int4[],
        ${resourceAt}::int4[],
        ${usages}::numeric[],
        ${timestamps}::float8[],
        ${cycleAt}::int4[]
      ) AS event(id, project, metric, resource, usage, at, cycle)
      ${skippingStored ? sql`ON CONFLICT (event_id) DO NOTHING` : sql``}
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
  `;
  // Most batches are new. A plain insert checks each id once, as it adds it to the unique index; skipping
  // the stored ones (ON CONFLICT) costs a speculative insertion per event, a quarter of the whole insert
  // on the embedded database. So a batch is first stored plainly; one holding an id already stored fails
  // whole (nothing is written) and is stored again, skipping those. Inside a caller's transaction a
  // failed statement would end the transaction, so there the batch skips stored ids from the start.
  let result;
  try {
    result = await store(db.isTransaction).execute(db);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    result = await store(true).execute(db);
  }
  return result.rows[0]?.accepted ?? 0;
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === '23505';
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
