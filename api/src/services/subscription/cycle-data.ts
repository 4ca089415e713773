import {
  computeUpcomingInvoice,
  cycleFraction,
  spendCapUpcomingInvoice,
  type SpendCapLedger,
  computeMetricForSize,
  isActiveProject,
  rational,
  Rationals,
  type AddonHours,
  type ComputeHours,
  type ComputeMetric,
  type ComputeSizeMetric,
  type PlanId,
  type ProjectMetricUsage,
  type QuotaMetric,
  type Rational,
  type PricedInvoice,
  type UpcomingInvoice,
  type UpcomingInvoiceInput,
  withLateUsage,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { getSubscription, subscriptionId } from '../../repositories/subscriptions.ts';
import { cycleUsage, cycleUsageAt, type CycleUsageRow } from '../../repositories/usage-readings.ts';
import {
  readingsByEventTime,
  spendCapLedgerOf,
  spendCapToggles,
} from '../spend-cap/cycle-ledger.ts';
import { NO_LATE_USAGE, readLateUsage, type LateUsage } from '../usage/late-usage.ts';
import { addUpUsage, exactUsage } from '../usage/usage-rows.ts';

export interface CycleSubject {
  organizationId: string;
  planId: PlanId;
  usageBillingEnabled: boolean;
  periodStart: Date;
  periodEnd: Date;
  /**
   * The end the cycle was scheduled to have, when it is priced as cut short at `periodEnd` (a plan
   * change): its sizes and compute credits count the part of the month it ran (product-decisions §15).
   */
  scheduledEnd?: Date;
  /** The subscription's late_usage_since: closed cycles from then on have usage to bill late. */
  lateUsageSince?: Date | null;
  /**
   * Price the cycle's usage as it stood at this moment (a change or a toggle priced at t): usage
   * stamped from t on is left out, whenever it arrived. Without it, all of the cycle's usage counts.
   */
  usageAt?: Date;
}

export interface CycleData {
  input: UpcomingInvoiceInput;
  totals: Partial<Record<QuotaMetric, Rational>>;
  perProject: ProjectMetricUsage[];
  projectCount: number;
  /** The cycle's roll-up rows as read: what closing it records as billed. */
  usageRows: CycleUsageRow[];
  /** Usage of earlier cycles that arrived after they closed: billed with this cycle. */
  late: LateUsage;
  /** The spend cap's history this cycle, when it was toggled (product-decisions §10); else null. */
  spendCap: SpendCapLedger | null;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

async function readCycleRows(db: Db, subject: CycleSubject) {
  const { organizationId, periodStart: start, periodEnd: end } = subject;
  const rows = await Promise.all([
    db
      .selectFrom('projects')
      .select(['id', 'ref', 'name', 'status', 'compute_size'])
      .where('organization_id', '=', organizationId)
      .orderBy('ref')
      .execute(),
    db
      .selectFrom('project_compute_resources')
      .select(['project_id', 'kind', 'compute_size', 'started_at', 'ended_at'])
      .where('organization_id', '=', organizationId)
      .where('started_at', '<', end)
      .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', start)]))
      .execute(),
    db
      .selectFrom('project_addons')
      .select(['project_id', 'addon', 'started_at', 'ended_at'])
      .where('organization_id', '=', organizationId)
      .where('started_at', '<', end)
      .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', start)]))
      .orderBy('started_at')
      .execute(),
    (subject.usageAt
      ? cycleUsageAt(db, organizationId, start, subject.usageAt)
      : cycleUsage(db, organizationId, start)
    ).then((usage) => usage.map(exactUsage)),
    spendCapToggles(db, organizationId, start),
  ]);
  const toggles = rows[4];
  const readings =
    toggles.length === 0
      ? []
      : await readingsByEventTime(
          db,
          organizationId,
          subject.planId,
          start,
          toggles.map((toggle) => seconds(toggle.at)),
          cycleFraction({
            start: seconds(start),
            end: seconds(subject.periodEnd),
            ...(subject.scheduledEnd ? { scheduledEnd: seconds(subject.scheduledEnd) } : {}),
          }),
        );
  const late = subject.lateUsageSince
    ? await readLateUsage(db, organizationId, subject.lateUsageSince, start, rows[0])
    : NO_LATE_USAGE;
  return [...rows, readings, late] as const;
}

type CycleRows = Awaited<ReturnType<typeof readCycleRows>>;

const CACHE_TTL_MS = 60_000;
const CACHE_ENTRIES = 1_000;

/**
 * What was read for a cycle, per organization, kept while the subscription's billing_version stays the
 * same (every ingestion moves it), and never longer than a minute. Reads in a transaction that writes
 * money (closing a cycle) never use it.
 *
 * It also keeps the last upcoming invoice priced from those rows: pricing is a pure function of the rows,
 * the plan and the second it is priced at, so callers within the same second get the same answer without
 * pricing 50 projects again.
 */
export class CycleRowsCache {
  private readonly entries = new Map<
    string,
    { key: string; rows: CycleRows; at: number; priced?: { key: string; invoice: PricedInvoice } }
  >();

  constructor(private readonly now: () => number = Date.now) {}

  private keyOf(subject: CycleSubject & { billingVersion: number }): string {
    return `${subject.billingVersion}|${subject.periodStart.getTime()}|${subject.periodEnd.getTime()}`;
  }

  private fresh(subject: CycleSubject & { billingVersion: number }) {
    const cached = this.entries.get(subject.organizationId);
    return cached && cached.key === this.keyOf(subject) && this.now() - cached.at < CACHE_TTL_MS
      ? cached
      : undefined;
  }

  async read(db: Db, subject: CycleSubject & { billingVersion: number }): Promise<CycleRows> {
    const cached = this.fresh(subject);
    if (cached) return cached.rows;
    const rows = await readCycleRows(db, subject);
    this.entries.delete(subject.organizationId);
    this.entries.set(subject.organizationId, { key: this.keyOf(subject), rows, at: this.now() });
    if (this.entries.size > CACHE_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return rows;
  }

  /** The invoice priced from these rows at `asOf` (whole seconds), priced once per second. */
  async upcomingInvoice(
    db: Db,
    subject: CycleSubject & { billingVersion: number },
    asOf: number,
  ): Promise<PricedInvoice> {
    const rows = await this.read(db, subject);
    const entry = this.fresh(subject);
    const key = `${subject.planId}|${subject.usageBillingEnabled}|${asOf}`;
    if (entry?.priced?.key === key) return entry.priced.invoice;
    const data = await loadCycleData(db, subject, new Date(asOf * 1000), rows);
    const invoice = withLateUsage(cycleInvoiceOf(data), data.late.lines);
    if (entry) entry.priced = { key, invoice };
    return invoice;
  }
}

/** Everything the engine needs to price a cycle, read from the store as of `asOf`. */
export async function loadCycleData(
  db: Db,
  subject: CycleSubject,
  asOf: Date,
  rows?: CycleRows,
): Promise<CycleData> {
  const { periodStart: start, periodEnd: end } = subject;
  const until = new Date(Math.min(Math.max(asOf.getTime(), start.getTime()), end.getTime()));
  const [projects, resources, addons, usage, toggles, readings, late] =
    rows ?? (await readCycleRows(db, subject));
  const refOf = new Map(projects.map((project) => [project.id, project.ref]));
  const nameOf = new Map(projects.map((project) => [project.id, project.name]));
  const billsCompute = subject.planId !== 'free';

  // What is running now, and would keep running to the end of the cycle.
  const running = new Set<string>();
  for (const project of projects) {
    if (billsCompute && isActiveProject(project.status)) {
      running.add(key(project.id, 'primary', computeMetricForSize(project.compute_size)));
    }
  }
  for (const resource of resources) {
    if (!billsCompute || (resource.ended_at && resource.ended_at <= until)) continue;
    const metric: ComputeMetric =
      resource.kind === 'branch'
        ? 'COMPUTE_HOURS_BRANCH'
        : computeMetricForSize(resource.compute_size);
    running.add(key(resource.project_id, resource.kind, metric));
  }

  const compute = new Map<string, ComputeHours>();
  const addHours = (
    projectId: string,
    resource: string,
    metric: ComputeMetric,
    hours: Rational,
  ) => {
    const ref = refOf.get(projectId);
    if (!ref || !billsCompute) return;
    const k = key(projectId, resource, metric);
    const isRunning = running.has(k);
    const entry: ComputeHours =
      resource === 'branch'
        ? { projectRef: ref, kind: 'branch', hours, running: isRunning }
        : {
            projectRef: ref,
            kind: resource === 'read_replica' ? 'read_replica' : 'primary',
            metric: metric as ComputeSizeMetric,
            hours,
            running: isRunning,
          };
    compute.set(k, entry);
  };
  const added = addUpUsage(usage);
  for (const entry of added.hours.values()) {
    addHours(entry.projectId, entry.resource, entry.metric, entry.hours);
  }
  for (const k of running) {
    if (compute.has(k)) continue;
    const [projectId = '', resource = '', metric = ''] = k.split('|');
    addHours(projectId, resource, metric as ComputeMetric, rational(0));
  }

  const addonHours: AddonHours[] = [];
  for (const addon of addons) {
    const ref = refOf.get(addon.project_id);
    if (!ref) continue;
    const from = Math.max(seconds(addon.started_at), seconds(start));
    const to = Math.min(addon.ended_at ? seconds(addon.ended_at) : Infinity, seconds(until));
    addonHours.push({
      projectRef: ref,
      addon: addon.addon,
      hours: rational(Math.max(0, to - from), 3600),
      running: !addon.ended_at || addon.ended_at > until,
    });
  }

  const totals: Partial<Record<QuotaMetric, Rational>> = {};
  const perProject: ProjectMetricUsage[] = [];
  for (const { projectId, metric, value } of added.values) {
    totals[metric] = Rationals.add(totals[metric] ?? rational(0), value);
    perProject.push({
      ref: refOf.get(projectId) ?? projectId,
      name: nameOf.get(projectId) ?? projectId,
      metric,
      usage: value,
    });
  }

  return {
    input: {
      planId: subject.planId,
      usageBillingEnabled: subject.usageBillingEnabled,
      period: {
        start: seconds(start),
        end: seconds(end),
        ...(subject.scheduledEnd ? { scheduledEnd: seconds(subject.scheduledEnd) } : {}),
      },
      asOf: seconds(until),
      projects: projects.map((project) => ({ ref: project.ref, name: project.name })),
      compute: [...compute.values()],
      addons: addonHours,
      usage: totals,
      usageByProject: perProject.map((entry) => ({
        projectRef: entry.ref,
        metric: entry.metric,
        usage: entry.usage,
      })),
    },
    totals,
    perProject,
    projectCount: projects.length,
    usageRows: usage.map((row) => row.row),
    late,
    spendCap: spendCapLedgerOf(
      { start: subject.periodStart, end: subject.periodEnd },
      toggles,
      readings,
    ),
  };
}

/** The cycle's invoice at its `asOf`, the spend cap's toggles this cycle taken into account. */
export function cycleInvoiceOf(data: CycleData): PricedInvoice {
  return data.spendCap
    ? spendCapUpcomingInvoice(data.input, data.spendCap)
    : computeUpcomingInvoice(data.input);
}

function key(projectId: string, resource: string, metric: string): string {
  return `${projectId}|${resource}|${metric}`;
}

/** The organization's current cycle, as of `at`; what was read may come from the cache. */
export async function loadCurrentCycle(
  db: Db,
  organizationId: string,
  at: Date,
  cache?: CycleRowsCache,
) {
  const subscription = await getSubscription(db, organizationId);
  const subject = subjectOf(organizationId, subscription);
  const rows = cache ? await cache.read(db, subject) : undefined;
  const data = await loadCycleData(db, subject, at, rows);
  return { subscription, data };
}

function subjectOf(
  organizationId: string,
  subscription: Awaited<ReturnType<typeof getSubscription>>,
) {
  return {
    organizationId,
    planId: subscription.plan_id,
    usageBillingEnabled: subscription.usage_billing_enabled,
    periodStart: subscription.current_period_start,
    periodEnd: subscription.current_period_end,
    lateUsageSince: subscription.late_usage_since,
    billingVersion: subscription.billing_version,
  };
}

/** The organization's upcoming invoice as of `at` (priced to the second, through the cache). */
export async function currentUpcomingInvoice(
  db: Db,
  organizationId: string,
  at: Date,
  cache: CycleRowsCache,
): Promise<UpcomingInvoice> {
  const subscription = await getSubscription(db, organizationId);
  const priced = await cache.upcomingInvoice(
    db,
    subjectOf(organizationId, subscription),
    Math.floor(at.getTime() / 1000),
  );
  return {
    ...priced,
    billing_cycle_start: subscription.current_period_start.toISOString(),
    billing_cycle_end: subscription.current_period_end.toISOString(),
    // The catalogue is in US dollars only (pricing.md): every amount here is US cents.
    currency: 'usd',
    customer_balance: subscription.customer_balance_cents,
    subscription_id: subscriptionId(organizationId),
  };
}
