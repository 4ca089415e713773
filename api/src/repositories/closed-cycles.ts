import type { CappedOverage, PlanId } from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';
import type { CycleUsageRow } from './usage-readings.ts';

export interface ClosedCycleRecord {
  organizationId: string;
  cycleStart: Date;
  cycleEnd: Date;
  /**
   * The end the cycle was scheduled to have: its end when it ran its course, later when a plan change
   * cut it short (its GB-months and compute credits scale by the part it ran, product-decisions §15).
   * Null for cycles closed before it was kept: priced as whole months.
   */
  scheduledEnd: Date | null;
  planId: PlanId;
  usageBillingEnabled: boolean;
  projects: readonly { ref: string; name: string }[];
  closedAt: Date;
  /** Capped overage its invoices billed, per line, when its spend cap was toggled; else null. */
  spendCapBilled: CappedOverage | null;
}

/** The rules a cycle closed under, kept to price the usage that reaches it after the close. */
export async function recordClosedCycle(db: Db, record: ClosedCycleRecord): Promise<void> {
  await db
    .insertInto('closed_cycles')
    .values({
      organization_id: record.organizationId,
      cycle_start: record.cycleStart,
      cycle_end: record.cycleEnd,
      scheduled_end: record.scheduledEnd,
      plan_id: record.planId,
      usage_billing_enabled: record.usageBillingEnabled,
      projects: JSON.stringify(record.projects),
      closed_at: record.closedAt,
      spend_cap_billed: record.spendCapBilled ? JSON.stringify(record.spendCapBilled) : null,
    })
    .execute();
}

/** What a closed cycle's invoices have billed of its capped overage, after late lines billed more. */
export async function recordSpendCapBilled(
  db: Db,
  organizationId: string,
  cycleStart: Date,
  billed: CappedOverage,
): Promise<void> {
  await db
    .updateTable('closed_cycles')
    .set({ spend_cap_billed: JSON.stringify(billed) })
    .where('organization_id', '=', organizationId)
    .where('cycle_start', '=', cycleStart)
    .execute();
}

export async function closedCyclesOf(
  db: Db,
  organizationId: string,
  starts: readonly Date[],
): Promise<ClosedCycleRecord[]> {
  if (starts.length === 0) return [];
  const rows = await db
    .selectFrom('closed_cycles')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('cycle_start', 'in', [...starts])
    .execute();
  return rows.map((row) => ({
    organizationId: row.organization_id,
    cycleStart: row.cycle_start,
    cycleEnd: row.cycle_end,
    scheduledEnd: row.scheduled_end,
    planId: row.plan_id,
    usageBillingEnabled: row.usage_billing_enabled,
    projects: row.projects,
    closedAt: row.closed_at,
    spendCapBilled: row.spend_cap_billed,
  }));
}

/** A roll-up row of a cycle, as billed so far: the row as read by the close that billed it. */
export interface BilledUsageRow extends CycleUsageRow {
  cycle_start: Date;
}

/**
 * Records roll-up rows as billed, with the values the biller read (never the row as it stands now:
 * usage ingested meanwhile is not billed yet). A row billed before is replaced by its newer reading.
 */
export async function recordBilledUsage(
  db: Db,
  organizationId: string,
  rows: readonly BilledUsageRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    INSERT INTO usage_cycle_billed AS billed
      (organization_id, cycle_start, metric, project_id, resource, usage_sum, usage_max, samples)
    SELECT ${organizationId}::uuid, row.cycle_start, row.metric, row.project_id, row.resource,
           row.usage_sum, row.usage_max, row.samples
    FROM unnest(
      ${rows.map((row) => row.cycle_start.toISOString())}::timestamptz[],
      ${rows.map((row) => row.metric)}::text[],
      ${rows.map((row) => row.project_id)}::uuid[],
      ${rows.map((row) => row.resource)}::text[],
      ${rows.map((row) => row.usage_sum)}::numeric[],
      ${rows.map((row) => row.usage_max)}::numeric[],
      ${rows.map((row) => row.samples)}::int4[]
    ) AS row(cycle_start, metric, project_id, resource, usage_sum, usage_max, samples)
    ON CONFLICT (organization_id, cycle_start, metric, project_id, resource) DO UPDATE
      SET usage_sum = EXCLUDED.usage_sum,
          usage_max = EXCLUDED.usage_max,
          samples = EXCLUDED.samples
  `.execute(db);
}

/** A roll-up row of a closed cycle beside what was billed of it (null: none of it). */
export interface ReportedUsageRow extends BilledUsageRow {
  billed: { usage_sum: string; usage_max: string; samples: number } | null;
}

/** Every roll-up row of the cycles that started in [since, before), beside what was billed of it. */
export async function closedCycleUsage(
  db: Db,
  organizationId: string,
  since: Date,
  before: Date,
): Promise<ReportedUsageRow[]> {
  const rows = await db
    .selectFrom('usage_cycle as usage')
    .leftJoin('usage_cycle_billed as billed', (join) =>
      join
        .onRef('billed.organization_id', '=', 'usage.organization_id')
        .onRef('billed.cycle_start', '=', 'usage.cycle_start')
        .onRef('billed.metric', '=', 'usage.metric')
        .onRef('billed.project_id', '=', 'usage.project_id')
        .onRef('billed.resource', '=', 'usage.resource'),
    )
    .select([
      'usage.cycle_start',
      'usage.project_id',
      'usage.metric',
      'usage.resource',
      'usage.usage_sum',
      'usage.usage_max',
      'usage.samples',
      'billed.usage_sum as billed_sum',
      'billed.usage_max as billed_max',
      'billed.samples as billed_samples',
    ])
    .where('usage.organization_id', '=', organizationId)
    .where('usage.cycle_start', '>=', since)
    .where('usage.cycle_start', '<', before)
    .execute();
  return rows.map((row) => ({
    cycle_start: row.cycle_start,
    project_id: row.project_id,
    metric: row.metric,
    resource: row.resource,
    usage_sum: String(row.usage_sum),
    usage_max: String(row.usage_max),
    samples: row.samples,
    billed:
      row.billed_samples === null || row.billed_sum === null || row.billed_max === null
        ? null
        : {
            usage_sum: String(row.billed_sum),
            usage_max: String(row.billed_max),
            samples: row.billed_samples,
          },
  }));
}

/** Each organization's closed cycles, unix seconds: where usage from before the anchor belongs. */
export async function closedCycleSpans(
  db: Db,
  organizationIds: readonly string[],
): Promise<Map<string, { start: number; end: number }[]>> {
  const rows = await db
    .selectFrom('closed_cycles')
    .select(['organization_id', 'cycle_start', 'cycle_end'])
    .where('organization_id', 'in', organizationIds)
    .execute();
  const spans = new Map<string, { start: number; end: number }[]>();
  for (const row of rows) {
    const list = spans.get(row.organization_id) ?? [];
    list.push({
      start: Math.floor(row.cycle_start.getTime() / 1000),
      end: Math.floor(row.cycle_end.getTime() / 1000),
    });
    spans.set(row.organization_id, list);
  }
  return spans;
}
