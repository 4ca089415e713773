import {
  addonsLostOnDowngrade,
  BILLING_PLANS,
  changeInvoice,
  changeInvoiceRecordLines,
  computeMetricForSize,
  creditedToBalance,
  invoiceTotal,
  isActiveProject,
  nextCycle,
  planChangeTiming,
  planIdOfTier,
  projectedInvoiceLines,
  rational,
  scheduledChangeInvoice,
  spendCapSettledAt,
  usageBillingEnabledForTier,
  type AddonMetric,
  type CappedOverage,
  type ChangeInvoice,
  type ComputeSize,
  type ProjectStatus,
  type ComputeHours,
  type PlanId,
  type SubscriptionPreview,
  type Tier,
  type UpcomingInvoiceLine,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import type { BilledUsageRow } from '../../repositories/closed-cycles.ts';
import type { SubscriptionState } from '../../repositories/subscriptions.ts';
import { describeSubscription } from '../subscription/describe-subscription.ts';
import { cycleInvoiceOf, loadCycleData } from '../subscription/cycle-data.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * A change frozen with its charge in `plan_changes`: a plan change, or a toggle of the spend cap (the
 * same plan, the other cap setting), priced at one moment.
 */
export interface FrozenChange {
  kind: 'plan' | 'spend_cap';
  tier: Tier;
  from: { plan: PlanId; usageBillingEnabled: boolean };
  to: { plan: PlanId; usageBillingEnabled: boolean };
  /** The moment of the change, unix seconds (the preview's proration date). */
  at: number;
  cycle: { start: Date; end: Date };
  /** The change invoice's lines as the invoice records them (none: no invoice). */
  recordLines: UpcomingInvoiceLine[];
  totalCents: number;
  /** Partner-billed: the invoice is recorded here and billed by the partner; no card, no balance. */
  billedViaPartner: boolean;
  /** The customer's balance the change was priced against. */
  balanceCents: number;
  creditAppliedCents: number;
  chargeTodayCents: number;
  /** The ending cycle's roll-up rows as read: what the change invoice bills of them. */
  billedUsage: BilledUsageRow[];
  projects: { ref: string; name: string }[];
  /**
   * A toggle's overage reading at `at` and what its invoice bills, per capped metric; for a plan
   * change of a cycle whose cap was toggled, what its usage lines bill of the capped overage.
   */
  spendCap: { reading: CappedOverage; billed: CappedOverage } | null;
  /** The spend cap's toggles in the cycle it was priced against: one more since makes it stale. */
  togglesInCycle: number;
}

/** A plan change priced at one moment: what the preview shows and what the change charges, to the cent. */
export interface PricedChange extends FrozenChange {
  invoice: ChangeInvoice;
  preview: SubscriptionPreview;
}

/**
 * Prices a change of the organization's plan to `tier` at `at` (unix seconds, inside the current cycle),
 * by product-decisions §9: the ending cycle's usage up to `at` by the old plan's rules (the upcoming
 * invoice's lines at `at`, without its plan line), the unused time on the old plan, the new plan's fee;
 * the balance first. Reads only; the same inputs give the same answer, so a change sent back with the
 * preview's proration date is charged exactly what the preview said.
 */
export async function priceChange(
  db: Db,
  organizationId: string,
  subscription: SubscriptionState,
  tier: Tier,
  at: number,
): Promise<PricedChange> {
  const to = { plan: planIdOfTier(tier), usageBillingEnabled: usageBillingEnabledForTier(tier) };
  const from = {
    plan: subscription.plan_id,
    usageBillingEnabled: subscription.usage_billing_enabled,
  };
  const cycle = { start: subscription.current_period_start, end: subscription.current_period_end };
  const timing = planChangeTiming(subscription.billing_partner, from.plan, to.plan);
  const data = await loadCycleData(
    db,
    {
      organizationId,
      planId: from.plan,
      usageBillingEnabled: from.usageBillingEnabled,
      periodStart: cycle.start,
      // The ending cycle is priced as it will have run: cut short at the change, its sizes billed in
      // GB-months and its compute credits its share of the month's (product-decisions §15). A change
      // at the cycle's very first second leaves nothing to price but the whole cycle at its start; a
      // change scheduled for the cycle's end cuts nothing short.
      ...(timing === 'now' && at > seconds(cycle.start)
        ? { periodEnd: new Date(at * 1000), scheduledEnd: cycle.end }
        : { periodEnd: cycle.end }),
      // Usage that reached earlier, closed cycles late is left to the next close: it is not this
      // cycle's, and the change does not record it as billed.
      lateUsageSince: null,
      // The ending cycle is [start, at): what is stamped from `at` on belongs to the new cycle.
      usageAt: new Date(at * 1000),
    },
    new Date(at * 1000),
  );
  // The upcoming invoice's lines at `at`, without its plan line (always the first: fees in advance).
  const usageLines = cycleInvoiceOf(data).lines.slice(1);
  const billedViaPartner = subscription.billing_via_partner;
  const invoice = changeInvoice({
    from: from.plan,
    to: to.plan,
    cycle: { start: seconds(cycle.start), end: seconds(cycle.end) },
    at,
    usageLines: usageLines.map((line) => ({ description: line.description, amount: line.amount })),
    balanceCents: billedViaPartner ? 0 : subscription.customer_balance_cents,
  });
  const recordLines = changeInvoiceRecordLines(
    invoice,
    usageLines,
    BILLING_PLANS[from.plan].monthlyPriceCents ?? 0,
  );
  const creditApplied = billedViaPartner ? 0 : invoice.creditAppliedCents;
  const chargeToday = billedViaPartner ? 0 : invoice.chargeTodayCents;
  const balanceAfter = billedViaPartner
    ? subscription.customer_balance_cents
    : invoice.balanceAfterCents;

  const [projects, resources, describedSubscription] = await Promise.all([
    db
      .selectFrom('projects')
      .select(['id', 'ref', 'name', 'status', 'compute_size'])
      .where('organization_id', '=', organizationId)
      .orderBy('ref')
      .execute(),
    db
      .selectFrom('project_compute_resources')
      .select(['project_id', 'kind', 'compute_size'])
      .where('organization_id', '=', organizationId)
      .where('ended_at', 'is', null)
      .execute(),
    describeSubscription(db, organizationId, new Date(at * 1000)),
  ]);
  const projectList = data.input.projects.map((project) => ({
    ref: project.ref,
    name: project.name,
  }));

  // A change scheduled for the cycle's end (a hosting partner's downgrade) gives no time back and
  // charges nothing today: its preview shows what the invoice that closes the cycle will bill.
  const newCycle =
    timing === 'now'
      ? invoice.newCycle
      : nextCycle(seconds(subscription.billing_cycle_anchor), seconds(cycle.end));
  const scheduled =
    timing === 'now'
      ? null
      : scheduledChangeInvoice({
          to: to.plan,
          cycle: invoice.endedCycle,
          nextCycle: newCycle,
          at,
          usageLines: usageLines.map((line) => ({
            description: line.description,
            amount: line.amount,
          })),
        });
  const estimate = monthlyEstimate(to, newCycle, data.input.projects, data.input.addons, {
    projects,
    resources,
  });
  const shown = scheduled ?? invoice;
  const active = projects.filter((project) => isActiveProject(project.status));
  const preview: SubscriptionPreview = {
    plan_change_type: invoice.direction,
    target_plan: { id: to.plan, name: BILLING_PLANS[to.plan].name },
    tier,
    breakdown: shown.lines.map((line) => ({
      description: line.description,
      total_price: line.amount,
      kind: line.kind,
      period_start: line.period.start,
      period_end: line.period.end,
      breakdown:
        line.kind === 'usage'
          ? projectsOf(usageLines.find((usage) => usage.description === line.description))
          : [],
    })),
    total: shown.totalCents,
    credit_applied: scheduled ? 0 : creditApplied,
    charge_today: scheduled ? 0 : chargeToday,
    balance_after: scheduled ? subscription.customer_balance_cents : balanceAfter,
    credited_to_balance: scheduled ? 0 : creditedToBalance(invoice.totalCents, billedViaPartner),
    monthly_invoice_estimate: estimate,
    proration_date: at,
    effective_at: timing,
    effective_date: timing === 'now' ? at : seconds(cycle.end),
    billed_via_partner: billedViaPartner,
    number_of_projects: projects.length,
    active_projects: active.map((project) => ({
      ref: project.ref,
      name: project.name,
      status: project.status,
      instance_size: project.compute_size,
    })),
    addons_to_remove:
      to.plan === 'free'
        ? addonsLostOnDowngrade(
            describedSubscription.project_addons.map((project) => ({
              project_ref: project.ref,
              project_name: project.name,
              addons: project.addons,
            })),
          ).map((project) => ({ ...project, addons: [...project.addons] }))
        : [],
  };
  return {
    kind: 'plan',
    tier,
    from,
    to,
    at,
    cycle,
    invoice,
    recordLines,
    totalCents: invoice.totalCents,
    // With the cap toggled this cycle, what the change invoice's usage lines settle of the capped
    // overage: kept with the closed cycle when the change is applied.
    spendCap: data.spendCap
      ? { reading: {}, billed: spendCapSettledAt(data.input, data.spendCap, at) }
      : null,
    togglesInCycle: data.spendCap?.timeline.toggles.length ?? 0,
    billedViaPartner,
    balanceCents: subscription.customer_balance_cents,
    creditAppliedCents: creditApplied,
    chargeTodayCents: chargeToday,
    billedUsage: data.usageRows.map((row) => ({ ...row, cycle_start: cycle.start })),
    projects: projectList,
    preview,
  };
}

function projectsOf(line: UpcomingInvoiceLine | undefined) {
  return (line?.breakdown ?? []).map((entry) => ({
    project_name: entry.project_name,
    project_ref: entry.project_ref,
  }));
}

/**
 * The first full cycle on the new plan with today's projects, instances and add-ons and no overage:
 * priced by the engine itself, as the invoice that closes that cycle would be (a Free plan bills no
 * compute; a downgrade to Free removes every add-on).
 */
function monthlyEstimate(
  to: { plan: PlanId; usageBillingEnabled: boolean },
  cycle: { start: number; end: number },
  invoiceProjects: readonly { ref: string; name: string }[],
  addons: readonly { projectRef: string; addon: AddonMetric; running: boolean }[],
  rows: {
    projects: readonly {
      id: string;
      ref: string;
      status: ProjectStatus;
      compute_size: ComputeSize;
    }[];
    resources: readonly {
      project_id: string;
      kind: 'read_replica' | 'branch';
      compute_size: ComputeSize;
    }[];
  },
): number {
  const billsCompute = BILLING_PLANS[to.plan].billsCompute;
  const refOf = new Map(rows.projects.map((project) => [project.id, project.ref]));
  const compute: ComputeHours[] = [];
  if (billsCompute) {
    for (const project of rows.projects) {
      if (!isActiveProject(project.status)) continue;
      compute.push({
        projectRef: project.ref,
        kind: 'primary',
        metric: computeMetricForSize(project.compute_size),
        hours: rational(0),
        running: true,
      });
    }
    for (const resource of rows.resources) {
      const projectRef = refOf.get(resource.project_id);
      if (!projectRef) continue;
      compute.push(
        resource.kind === 'branch'
          ? { projectRef, kind: 'branch', hours: rational(0), running: true }
          : {
              projectRef,
              kind: 'read_replica',
              metric: computeMetricForSize(resource.compute_size),
              hours: rational(0),
              running: true,
            },
      );
    }
  }
  const lines = projectedInvoiceLines({
    planId: to.plan,
    usageBillingEnabled: to.usageBillingEnabled,
    period: cycle,
    asOf: cycle.start,
    projects: invoiceProjects,
    compute,
    addons:
      to.plan === 'free'
        ? []
        : addons
            .filter((addon) => addon.running)
            .map((addon) => ({
              projectRef: addon.projectRef,
              addon: addon.addon,
              hours: rational(0),
              running: true,
            })),
    usage: {},
  });
  return invoiceTotal(lines);
}

/** A priced change as stored in JSON (a preview's quote): its dates as ISO strings. */
type StoredPricedChange = Omit<PricedChange, 'cycle' | 'billedUsage'> & {
  cycle: { start: string; end: string };
  billedUsage: (Omit<BilledUsageRow, 'cycle_start'> & { cycle_start: string })[];
};

/** The priced change back from its JSON (written by JSON.stringify of a PricedChange). */
export function pricedChangeFromJson(stored: unknown): PricedChange {
  const priced = stored as StoredPricedChange;
  return {
    ...priced,
    cycle: { start: new Date(priced.cycle.start), end: new Date(priced.cycle.end) },
    billedUsage: priced.billedUsage.map((row) => ({
      ...row,
      cycle_start: new Date(row.cycle_start),
    })),
  };
}

/**
 * The subscription is still what the change was priced against: its plan, cycle and balance. (Usage
 * ingested meanwhile is not a difference: the change records as billed only the rows it read.)
 */
export function pricedAgainst(priced: FrozenChange, subscription: SubscriptionState): boolean {
  return (
    priced.from.plan === subscription.plan_id &&
    priced.from.usageBillingEnabled === subscription.usage_billing_enabled &&
    priced.cycle.start.getTime() === subscription.current_period_start.getTime() &&
    priced.cycle.end.getTime() === subscription.current_period_end.getTime() &&
    priced.balanceCents === subscription.customer_balance_cents &&
    priced.billedViaPartner === subscription.billing_via_partner
  );
}
