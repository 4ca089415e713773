import {
  addOverage,
  cappedOverageReading,
  cycleFraction,
  isOverageEmpty,
  lateSpendCapLines,
  lateUsageLines,
  settleSpendCapOverage,
  type CappedOverage,
  Rationals,
  type ComputeHours,
  type ComputeSizeMetric,
  type CycleUsage,
  type QuotaMetric,
  type Rational,
  type UpcomingInvoiceLine,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import {
  closedCycleUsage,
  closedCyclesOf,
  recordBilledUsage,
  recordSpendCapBilled,
  type ClosedCycleRecord,
  type BilledUsageRow,
  type ReportedUsageRow,
} from '../../repositories/closed-cycles.ts';
import {
  readingsByEventTime,
  spendCapLedgerOf,
  spendCapToggles,
} from '../spend-cap/cycle-ledger.ts';
import { addUpUsage, exactUsage } from './usage-rows.ts';

/** Usage that reached closed cycles after their close: the lines that bill it, the rows it read. */
export interface LateUsage {
  lines: UpcomingInvoiceLine[];
  /** The closed cycles' roll-up rows as read: recorded as billed once the lines are. */
  rows: BilledUsageRow[];
  /** Closed cycles whose cap was toggled: their capped overage billed once these lines are too. */
  spendCapBilled: { cycleStart: Date; billed: CappedOverage }[];
}

export const NO_LATE_USAGE: LateUsage = { lines: [], rows: [], spendCapBilled: [] };

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** What roll-up rows add up to, as the engine prices a cycle; compute resources by project ref. */
function cycleUsageOf(rows: readonly BilledUsageRow[], refOf: ReadonlyMap<string, string>) {
  const { hours, values } = addUpUsage(rows.map(exactUsage));
  const compute: ComputeHours[] = [...hours.values()].map((entry) => {
    const projectRef = refOf.get(entry.projectId) ?? entry.projectId;
    return entry.metric === 'COMPUTE_HOURS_BRANCH' || entry.resource === 'branch'
      ? { projectRef, kind: 'branch', hours: entry.hours, running: false }
      : {
          projectRef,
          kind: entry.resource === 'read_replica' ? 'read_replica' : 'primary',
          metric: entry.metric as ComputeSizeMetric,
          hours: entry.hours,
          running: false,
        };
  });
  const usage: Partial<Record<QuotaMetric, Rational>> = {};
  for (const { metric, value } of values) {
    usage[metric] = Rationals.add(usage[metric] ?? Rationals.ZERO, value);
  }
  return { compute, usage } satisfies CycleUsage;
}

/** The row as it stands now. */
function reportedPart(row: ReportedUsageRow): BilledUsageRow {
  const { cycle_start, project_id, metric, resource, usage_sum, usage_max, samples } = row;
  return { cycle_start, project_id, metric, resource, usage_sum, usage_max, samples };
}

/** The row as it was billed; none of a row that came after its cycle was billed. */
function billedPart(row: ReportedUsageRow): BilledUsageRow[] {
  return row.billed ? [{ ...reportedPart(row), ...row.billed }] : [];
}

function isBilled(row: ReportedUsageRow): boolean {
  return row.billed !== null && row.billed.samples === row.samples;
}

/**
 * The late usage of the organization's closed cycles that started in [since, before): for each cycle
 * that received usage since it was billed, the difference between what its usage costs now and what
 * was billed for it, by the rules the cycle closed under. `since` is the subscription's
 * late_usage_since; without it nothing is late and nothing is read.
 */
export async function readLateUsage(
  db: Db,
  organizationId: string,
  since: Date | null,
  before: Date,
  projects: readonly { id: string; ref: string }[],
): Promise<LateUsage> {
  if (since === null || since >= before) return NO_LATE_USAGE;
  const rows = await closedCycleUsage(db, organizationId, since, before);
  const byCycle = new Map<number, ReportedUsageRow[]>();
  for (const row of rows) {
    const cycle = byCycle.get(row.cycle_start.getTime()) ?? [];
    cycle.push(row);
    byCycle.set(row.cycle_start.getTime(), cycle);
  }
  const late = [...byCycle].filter(([, cycle]) => !cycle.every(isBilled)).sort(([a], [b]) => a - b);
  if (late.length === 0) return NO_LATE_USAGE;

  const terms = new Map(
    (
      await closedCyclesOf(
        db,
        organizationId,
        late.map(([start]) => new Date(start)),
      )
    ).map((cycle) => [cycle.cycleStart.getTime(), cycle]),
  );
  const refOf = new Map(projects.map((project) => [project.id, project.ref]));
  const lines: UpcomingInvoiceLine[] = [];
  const reported: BilledUsageRow[] = [];
  const spendCapBilled: LateUsage['spendCapBilled'] = [];
  for (const [start, cycle] of late) {
    reported.push(...cycle.map(reportedPart));
    const closed = terms.get(start);
    // A cycle with no terms on record closed before they were kept, without an invoice of ours
    // (free, or billed by a partner): nothing of it is billed here, late or not.
    if (!closed) continue;
    const period = {
      start: seconds(closed.cycleStart),
      end: seconds(closed.cycleEnd),
      // A cycle a plan change cut short: its sizes and credits count the part of the month it ran.
      ...(closed.scheduledEnd ? { scheduledEnd: seconds(closed.scheduledEnd) } : {}),
    };
    const reportedUsage = cycleUsageOf(cycle.map(reportedPart), refOf);
    lines.push(
      ...lateUsageLines(
        {
          planId: closed.planId,
          // A cycle whose cap was toggled bills its capped overage by its cap intervals, below.
          usageBillingEnabled: closed.spendCapBilled ? false : closed.usageBillingEnabled,
          period,
          projects: closed.projects,
        },
        cycleUsageOf(cycle.flatMap(billedPart), refOf),
        reportedUsage,
      ),
    );
    if (closed.spendCapBilled) {
      const settled = await lateSpendCapSettlement(
        db,
        organizationId,
        { ...closed, spendCapBilled: closed.spendCapBilled },
        reportedUsage,
      );
      if (!isOverageEmpty(settled)) {
        lines.push(...lateSpendCapLines(period, settled));
        spendCapBilled.push({
          cycleStart: closed.cycleStart,
          billed: addOverage([closed.spendCapBilled, settled]),
        });
      }
    }
  }
  return { lines, rows: reported, spendCapBilled };
}

/**
 * What a closed cycle whose spend cap was toggled owes late of its capped overage: its cap-off
 * intervals settled again at its end, with the readings at its toggles by event time and all its usage
 * now, less what its invoices billed. Usage stamped while the cap was off is billed by the interval it
 * happened in, usage stamped while it was on never, whenever either arrived.
 */
async function lateSpendCapSettlement(
  db: Db,
  organizationId: string,
  closed: ClosedCycleRecord & { spendCapBilled: CappedOverage },
  reported: CycleUsage,
): Promise<CappedOverage> {
  const toggles = await spendCapToggles(db, organizationId, closed.cycleStart);
  const fraction = cycleFraction({
    start: seconds(closed.cycleStart),
    end: seconds(closed.cycleEnd),
    ...(closed.scheduledEnd ? { scheduledEnd: seconds(closed.scheduledEnd) } : {}),
  });
  const readings = await readingsByEventTime(
    db,
    organizationId,
    closed.planId,
    closed.cycleStart,
    toggles.map((toggle) => seconds(toggle.at)),
    fraction,
  );
  const ledger = spendCapLedgerOf(
    { start: closed.cycleStart, end: closed.cycleEnd },
    toggles,
    readings,
  );
  if (!ledger || closed.planId !== 'pro') return {};
  const end = seconds(closed.cycleEnd);
  return settleSpendCapOverage({
    timeline: ledger.timeline,
    at: end,
    readings: [...readings, cappedOverageReading(closed.planId, end, reported.usage, fraction)],
    billed: closed.spendCapBilled,
    credit: true,
  }).amounts;
}

/** Records the late usage as billed: the rows as read, whatever was ingested since. */
export async function recordLateUsageBilled(
  db: Db,
  organizationId: string,
  late: LateUsage,
): Promise<void> {
  await recordBilledUsage(db, organizationId, late.rows);
  for (const cycle of late.spendCapBilled) {
    await recordSpendCapBilled(db, organizationId, cycle.cycleStart, cycle.billed);
  }
}
