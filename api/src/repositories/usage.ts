import {
  isSpendCapOn,
  Rationals,
  rational,
  rationalFromNumber,
  type Rational,
} from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export interface ResolvedEvent {
  eventId: string;
  organizationId: string;
  projectId: string;
  metric: string;
  resource: string;
  usage: number;
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

interface RollUp {
  project: number;
  metric: number;
  resource: number;
  /** The day (days since 1970-01-01) or the cycle's position. */
  period: number;
  /** The whole-number usages summed, while the sum stays exact as a number. */
  whole: number;
  /** Everything else summed, as the decimals they were written as. */
  rest: Rational | null;
  max: number;
  samples: number;
}

/**
 * A batch's events summed per project, metric, resource and period, exactly. Summing thousands of
 * numerics in the database costs more than the insert's unique index; here a whole-number usage (bytes,
 * calls, users) is a number addition and any other is summed as an exact fraction.
 */
class RollUps {
  private readonly rows = new Map<number, RollUp>();

  add(project: number, metric: number, resource: number, period: number, usage: number) {
    // One number keys the row: a batch holds at most 10,000 events (projects below 2^14), a few dozen
    // metrics (below 2^6) and four resources (below 2^3); days and cycles stay far below 2^30.
    if (project >= 2 ** 14 || metric >= 2 ** 6 || resource >= 2 ** 3) {
      throw new RangeError('Too many distinct projects, metrics or resources in one batch');
    }
    const key = period * 2 ** 23 + project * 2 ** 9 + metric * 2 ** 3 + resource;
    let row = this.rows.get(key);
    if (!row) {
      row = { project, metric, resource, period, whole: 0, rest: null, max: usage, samples: 0 };
      this.rows.set(key, row);
    }
    const whole = row.whole + usage;
    if (Number.isSafeInteger(usage) && Number.isSafeInteger(whole)) row.whole = whole;
    else row.rest = Rationals.add(row.rest ?? Rationals.ZERO, rationalFromNumber(usage));
    row.max = Math.max(row.max, usage);
    row.samples += 1;
  }

  /** The roll-up rows as columns, for unnest. */
  columns() {
    const rows = [...this.rows.values()];
    const sum = (row: RollUp) =>
      row.rest === null
        ? String(row.whole)
        : Rationals.toDecimalString(Rationals.add(row.rest, rational(row.whole)));
    return sql`unnest(
      ${rows.map((row) => row.project)}::int4[],
      ${rows.map((row) => row.metric)}::int4[],
      ${rows.map((row) => row.resource)}::int4[],
      ${rows.map((row) => row.period)}::int4[],
      ${rows.map(sum)}::numeric[],
      ${rows.map((row) => String(row.max))}::numeric[],
      ${rows.map((row) => row.samples)}::int4[]
    ) AS rollup(project, metric, resource, period, usage_sum, usage_max, samples)`;
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
 * Stores the events not stored before (by event id; within the batch the first of two with one id wins)
 * and adds them to the daily and per-cycle roll-ups, in one statement: an event is stored and counted
 * once, or not at all. Answers how many were new.
 *
 * Most batches are new, so a batch is first stored as it is: the unique index checks each id as it adds
 * it (ON CONFLICT DO NOTHING would cost a speculative insertion per event, a quarter of the insert on the
 * embedded database). If some id is already stored the statement fails whole, writing nothing, and the
 * batch is sent again without the ids stored by then (concurrent reporters: each failure means another
 * batch stored one of these ids, so this ends). Inside a caller's transaction a failed statement would
 * end the transaction, so there the stored ids are looked up first.
 */
export async function insertUsageEvents(
  db: Db,
  events: readonly ResolvedEvent[],
  /** Filled with each organization's billing anchor (unix seconds) as the statement saw it. */
  anchorsSeen?: Map<string, number>,
): Promise<number> {
  const seen = new Set<string>();
  let pending: readonly ResolvedEvent[] = events.filter(
    (event) => !seen.has(event.eventId) && seen.add(event.eventId),
  );
  if (db.isTransaction) pending = await withoutStored(db, pending);
  for (;;) {
    try {
      await storeNewEvents(db, pending, anchorsSeen);
      return pending.length;
    } catch (error) {
      if (db.isTransaction || !isUniqueViolation(error)) throw error;
      const rest = await withoutStored(db, pending);
      if (rest.length === pending.length) throw error;
      pending = rest;
    }
  }
}

async function withoutStored(
  db: Db,
  events: readonly ResolvedEvent[],
): Promise<readonly ResolvedEvent[]> {
  if (events.length === 0) return events;
  const { rows } = await sql<{ event_id: string }>`
    SELECT event_id FROM usage_events WHERE event_id = ANY(${events.map((event) => event.eventId)}::text[])
  `.execute(db);
  const stored = new Set(rows.map((row) => row.event_id));
  return events.filter((event) => !stored.has(event.eventId));
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && (error as Error & { code?: unknown }).code === '23505';
}

async function storeNewEvents(
  db: Db,
  events: readonly ResolvedEvent[],
  anchorsSeen?: Map<string, number>,
): Promise<void> {
  if (events.length === 0) return;
  const projects = new Dictionary<{ projectId: string; organizationId: string }>();
  const metrics = new Dictionary<string>();
  const resources = new Dictionary<string>();
  const cycles = new Dictionary<Date, number>();
  const daily = new RollUps();
  const perCycle = new RollUps();
  const ids: string[] = [];
  const projectAt: number[] = [];
  const metricAt: number[] = [];
  const resourceAt: number[] = [];
  const usages: string[] = [];
  const timestamps: number[] = [];
  const cycleAt: (number | null)[] = [];
  // Each organization's cycles in the batch: any that has closed gets its usage billed late.
  const cyclesOf = new Map<string, { organizationId: string; start: Date }>();
  for (const event of events) {
    const project = projects.positionOf(event.projectId, event);
    const metric = metrics.positionOf(event.metric, event.metric);
    const resource = resources.positionOf(event.resource, event.resource);
    const { usage, timestamp, cycleStart } = event;
    ids.push(event.eventId);
    projectAt.push(project);
    metricAt.push(metric);
    resourceAt.push(resource);
    usages.push(String(usage));
    timestamps.push(timestamp);
    daily.add(project, metric, resource, Math.floor(timestamp / 86_400), usage);
    const cycle = cycleStart === null ? null : cycles.positionOf(cycleStart.getTime(), cycleStart);
    cycleAt.push(cycle);
    if (cycle !== null) perCycle.add(project, metric, resource, cycle, usage);
    if (cycleStart !== null) {
      const key = `${event.organizationId}|${cycleStart.getTime()}`;
      if (!cyclesOf.has(key)) {
        cyclesOf.set(key, { organizationId: event.organizationId, start: cycleStart });
      }
    }
  }
  const batchCycles = [...cyclesOf.values()];
  const organizationOf = sql`${projects.values.map((project) => project.organizationId)}::uuid[]`;
  const projectOf = sql`${projects.values.map((project) => project.projectId)}::uuid[]`;
  const metricNamed = sql`${metrics.values}::text[]`;
  const resourceNamed = sql`${resources.values}::text[]`;
  const cycleStarting = sql`${cycles.values.map((start) => start.toISOString())}::timestamptz[]`;
  const { rows } = await sql<{ organization_id: string; billing_cycle_anchor: Date }>`
    WITH stored AS (
      INSERT INTO usage_events
        (event_id, organization_id, project_id, metric, resource, usage, occurred_at, cycle_start)
      SELECT event.id,
             (${organizationOf})[event.project],
             (${projectOf})[event.project],
             (${metricNamed})[event.metric],
             (${resourceNamed})[event.resource],
             event.usage,
             to_timestamp(event.at),
             (${cycleStarting})[event.cycle]
      FROM unnest(
        ${ids}::text[],
        ${projectAt}::int4[],
        ${metricAt}::int4[],
        ${resourceAt}::int4[],
        ${usages}::numeric[],
        ${timestamps}::float8[],
        ${cycleAt}::int4[]
      ) AS event(id, project, metric, resource, usage, at, cycle)
    ),
    cycled AS (
      INSERT INTO usage_cycle AS cycle
        (organization_id, cycle_start, metric, project_id, resource, usage_sum, usage_max, samples)
      SELECT (${organizationOf})[rollup.project],
             (${cycleStarting})[rollup.period],
             (${metricNamed})[rollup.metric],
             (${projectOf})[rollup.project],
             (${resourceNamed})[rollup.resource],
             rollup.usage_sum, rollup.usage_max, rollup.samples
      FROM ${perCycle.columns()}
      ON CONFLICT (organization_id, cycle_start, metric, project_id, resource) DO UPDATE
        SET usage_sum = cycle.usage_sum + EXCLUDED.usage_sum,
            usage_max = greatest(cycle.usage_max, EXCLUDED.usage_max),
            samples = cycle.samples + EXCLUDED.samples
    ),
    rolled AS (
      INSERT INTO usage_daily AS daily
        (organization_id, day, metric, project_id, resource, usage_sum, usage_max, samples)
      SELECT (${organizationOf})[rollup.project],
             date '1970-01-01' + rollup.period,
             (${metricNamed})[rollup.metric],
             (${projectOf})[rollup.project],
             (${resourceNamed})[rollup.resource],
             rollup.usage_sum, rollup.usage_max, rollup.samples
      FROM ${daily.columns()}
      ON CONFLICT (organization_id, day, metric, project_id, resource) DO UPDATE
        SET usage_sum = daily.usage_sum + EXCLUDED.usage_sum,
            usage_max = greatest(daily.usage_max, EXCLUDED.usage_max),
            samples = daily.samples + EXCLUDED.samples
    )
    UPDATE subscriptions
    SET billing_version = billing_version + 1,
        -- Usage of a cycle that has closed is billed by the next close. Decided here, where the
        -- subscription's row lock is taken: a close holds it, so this sees the cycle it moved to.
        late_usage_since = least(late_usage_since, (
          SELECT min(batch.start)
          FROM unnest(
            ${batchCycles.map((cycle) => cycle.organizationId)}::uuid[],
            ${batchCycles.map((cycle) => cycle.start.toISOString())}::timestamptz[]
          ) AS batch(organization_id, start)
          WHERE batch.organization_id = subscriptions.organization_id
            AND batch.start < subscriptions.current_period_start
        ))
    WHERE organization_id = ANY(${organizationOf})
    RETURNING organization_id, billing_cycle_anchor
  `.execute(db);
  for (const row of rows) {
    anchorsSeen?.set(
      row.organization_id,
      Math.floor(new Date(row.billing_cycle_anchor).getTime() / 1000),
    );
  }
}

/**
 * Each organization's billing cycle anchor, in unix seconds, and whether its plan limits usage at the
 * quotas (Free, or Pro with the spend cap on).
 */
export async function billingAnchors(db: Db, organizationIds: readonly string[]) {
  if (organizationIds.length === 0)
    return new Map<string, { anchor: number; limitsUsage: boolean }>();
  const rows = await db
    .selectFrom('subscriptions')
    .select(['organization_id', 'billing_cycle_anchor', 'plan_id', 'usage_billing_enabled'])
    .where('organization_id', 'in', [...organizationIds])
    .execute();
  return new Map(
    rows.map((row) => [
      row.organization_id,
      {
        anchor: Math.floor(row.billing_cycle_anchor.getTime() / 1000),
        limitsUsage: isSpendCapOn(row.plan_id, row.usage_billing_enabled),
      },
    ]),
  );
}

/**
 * Places again the organization's events stamped from `from` on, by `cycleStartOf` (the cycles as
 * they are now), and rebuilds the roll-ups of every key an event left or joined, from the events. A
 * plan change applied at t starts a new cycle at t: the usage stamped from t on belongs to it, even
 * when it arrived before the change was applied and was counted in the cycle that was then current
 * (or the one after it). Moves the subscription's billing_version when anything moved; in the
 * caller's transaction, which holds the subscription's lock. Answers how many events moved.
 */
export async function placeEventsAgain(
  trx: Db,
  organizationId: string,
  /** The events stamped from here on; they all lie in this cycle or later ones. */
  from: { at: Date; cycleStart: Date },
  cycleStartOf: (timestamp: number) => Date | null,
): Promise<number> {
  const { rows } = await sql<{
    event_id: string;
    occurred_at: Date;
    cycle_start: Date | null;
    project_id: string;
    metric: string;
    resource: string;
  }>`
    SELECT event_id, occurred_at, cycle_start, project_id, metric, resource
    FROM usage_events
    WHERE organization_id = ${organizationId} AND cycle_start >= ${from.cycleStart}
      AND occurred_at >= ${from.at}
  `.execute(trx);
  const moved: { id: string; start: Date | null }[] = [];
  const keys = new Map<
    string,
    { start: Date; project: string; metric: string; resource: string }
  >();
  const touch = (start: Date | null, row: (typeof rows)[number]) => {
    if (start === null) return;
    const k = `${start.getTime()}|${row.project_id}|${row.metric}|${row.resource}`;
    keys.set(k, { start, project: row.project_id, metric: row.metric, resource: row.resource });
  };
  for (const row of rows) {
    const placed = cycleStartOf(Math.floor(new Date(row.occurred_at).getTime() / 1000));
    const was = row.cycle_start === null ? null : new Date(row.cycle_start);
    if ((placed?.getTime() ?? null) === (was?.getTime() ?? null)) continue;
    moved.push({ id: row.event_id, start: placed });
    touch(was, row);
    touch(placed, row);
  }
  if (moved.length === 0) return 0;
  await sql`
    UPDATE usage_events AS event SET cycle_start = moved.start
    FROM unnest(
      ${moved.map((event) => event.id)}::text[],
      ${moved.map((event) => event.start?.toISOString() ?? null)}::timestamptz[]
    ) AS moved(id, start)
    WHERE event.event_id = moved.id
  `.execute(trx);
  const affected = [...keys.values()];
  const keyList = sql`unnest(
      ${affected.map((key) => key.start.toISOString())}::timestamptz[],
      ${affected.map((key) => key.project)}::uuid[],
      ${affected.map((key) => key.metric)}::text[],
      ${affected.map((key) => key.resource)}::text[]
    ) AS key(cycle_start, project_id, metric, resource)`;
  await sql`
    DELETE FROM usage_cycle AS cycle
    USING ${keyList}
    WHERE cycle.organization_id = ${organizationId}
      AND cycle.cycle_start = key.cycle_start AND cycle.project_id = key.project_id
      AND cycle.metric = key.metric AND cycle.resource = key.resource
  `.execute(trx);
  await sql`
    INSERT INTO usage_cycle
      (organization_id, cycle_start, metric, project_id, resource, usage_sum, usage_max, samples)
    SELECT event.organization_id, event.cycle_start, event.metric, event.project_id, event.resource,
           sum(event.usage), max(event.usage), count(*)::int
    FROM usage_events AS event
    JOIN ${keyList}
      ON event.cycle_start = key.cycle_start AND event.project_id = key.project_id
     AND event.metric = key.metric AND event.resource = key.resource
    WHERE event.organization_id = ${organizationId}
    GROUP BY event.organization_id, event.cycle_start, event.metric, event.project_id, event.resource
  `.execute(trx);
  await sql`
    UPDATE subscriptions SET billing_version = billing_version + 1
    WHERE organization_id = ${organizationId}
  `.execute(trx);
  return moved.length;
}
