import { USAGE_METRIC_DEFINITIONS } from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import { rationalFromDecimal, toNumber } from '../db/numeric.ts';

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

/** A project's value of a metric on a day, by the metric's aggregation (sizes: the day's average sample). */
export function dailyValue(row: DailyUsageRow): number {
  const definition = USAGE_METRIC_DEFINITIONS[row.metric as keyof typeof USAGE_METRIC_DEFINITIONS];
  const sum = rationalFromDecimal(row.usage_sum);
  if (definition?.aggregation === 'average') return toNumber(sum) / Math.max(1, row.samples);
  if (definition?.aggregation === 'max') return toNumber(rationalFromDecimal(row.usage_max));
  return toNumber(sum);
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

/**
 * The usage of the cycle that started at `start` stamped before `before`, per project, metric and
 * resource: what had happened by then, whenever it arrived. Read from the events themselves (the
 * index on organization, cycle and event time), so a key's sum, peak and count are exact.
 */
export async function cycleUsageStampedBefore(
  db: Db,
  organizationId: string,
  start: Date,
  before: Date,
): Promise<CycleUsageRow[]> {
  const { rows } = await sql<CycleUsageRow>`
    SELECT project_id, metric, resource, sum(usage)::text AS usage_sum,
           max(usage)::text AS usage_max, count(*)::int AS samples
    FROM usage_events
    WHERE organization_id = ${organizationId} AND cycle_start = ${start}
      AND occurred_at < ${before}
    GROUP BY project_id, metric, resource
  `.execute(db);
  return rows;
}

/**
 * The usage of the cycle that started at `start` as it stood at `at`: its roll-up rows, except that a
 * key holding events stamped from `at` on (an agent whose clock runs ahead) is read again from the
 * events stamped before it. Pricing a moment inside the cycle never counts what happened after it.
 */
export async function cycleUsageAt(
  db: Db,
  organizationId: string,
  start: Date,
  at: Date,
): Promise<CycleUsageRow[]> {
  const [rolled, after] = await Promise.all([
    cycleUsage(db, organizationId, start),
    sql<{ project_id: string; metric: string; resource: string }>`
      SELECT DISTINCT project_id, metric, resource
      FROM usage_events
      WHERE organization_id = ${organizationId} AND cycle_start = ${start}
        AND occurred_at >= ${at}
    `.execute(db),
  ]);
  if (after.rows.length === 0) return rolled;
  const keyOf = (row: { project_id: string; metric: string; resource: string }) =>
    `${row.project_id}|${row.metric}|${row.resource}`;
  const moved = new Set(after.rows.map(keyOf));
  const before = await cycleUsageStampedBefore(db, organizationId, start, at);
  return [
    ...rolled.filter((row) => !moved.has(keyOf(row))),
    ...before.filter((row) => moved.has(keyOf(row))),
  ];
}
