import {
  cappedOverageReading,
  invoiceTotal,
  spendCapTurnOnCharge,
  tierFor,
  type SpendCapLedger,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import type { SubscriptionState } from '../../repositories/subscriptions.ts';
import { loadCycleData } from '../subscription/cycle-data.ts';
import type { FrozenChange } from '../plan-changes/price-change.ts';

/**
 * Prices turning the spend cap on or off at `at` (unix seconds, inside the current cycle), by
 * product-decisions §10. A toggle moves no cycle and no plan fee. Turning it on invoices the overage
 * accrued while it was off this cycle and not billed yet (the engine's turn-on charge; none: no
 * invoice), the balance first; turning it off bills nothing now. Either way the overage reading at `at`
 * is kept with the toggle: the engine bills each line's increase over the cap-off intervals from it.
 */
export async function priceSpendCapToggle(
  db: Db,
  organizationId: string,
  subscription: SubscriptionState,
  capOn: boolean,
  at: number,
): Promise<FrozenChange> {
  const cycle = { start: subscription.current_period_start, end: subscription.current_period_end };
  const data = await loadCycleData(
    db,
    {
      organizationId,
      planId: subscription.plan_id,
      usageBillingEnabled: subscription.usage_billing_enabled,
      periodStart: cycle.start,
      periodEnd: cycle.end,
      lateUsageSince: null,
      // The reading at `at` is the usage stamped before it, whenever it arrived.
      usageAt: new Date(at * 1000),
    },
    new Date(at * 1000),
  );
  const reading = cappedOverageReading(subscription.plan_id, at, data.input.usage);
  const ledger: SpendCapLedger = data.spendCap ?? {
    timeline: {
      period: data.input.period,
      capOnAtStart: !subscription.usage_billing_enabled,
      toggles: [],
    },
    readings: [],
    billed: {},
  };
  const charge = capOn ? spendCapTurnOnCharge(ledger, reading) : null;
  const lines = charge?.lines ?? [];
  const total = invoiceTotal(lines);
  const billedViaPartner = subscription.billing_via_partner;
  const credit = billedViaPartner
    ? 0
    : Math.min(Math.max(subscription.customer_balance_cents, 0), total);
  const usageBillingEnabled = !capOn;
  return {
    kind: 'spend_cap',
    tier: tierFor(subscription.plan_id, usageBillingEnabled),
    from: { plan: subscription.plan_id, usageBillingEnabled: subscription.usage_billing_enabled },
    to: { plan: subscription.plan_id, usageBillingEnabled },
    at,
    cycle,
    recordLines: lines,
    totalCents: total,
    billedViaPartner,
    balanceCents: subscription.customer_balance_cents,
    creditAppliedCents: credit,
    chargeTodayCents: billedViaPartner ? 0 : total - credit,
    billedUsage: [],
    projects: data.input.projects.map((project) => ({ ref: project.ref, name: project.name })),
    spendCap: { reading: reading.amounts, billed: charge?.settlement.amounts ?? {} },
    togglesInCycle: data.spendCap?.timeline.toggles.length ?? 0,
  };
}
