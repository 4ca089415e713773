import { enqueueBillingEmail } from '../notifications/enqueue-email.ts';
import {
  addMonthsClamped,
  addOverage,
  BILLING_PLANS,
  creditedToBalance,
  cycleContaining,
  planChangeType,
  type CappedOverage,
} from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { recordBilledUsage, recordClosedCycle } from '../../repositories/closed-cycles.ts';
import { makeDefaultPaymentMethod } from '../../repositories/payment-methods.ts';
import { lockSubscription } from '../../repositories/subscriptions.ts';
import { placeEventsAgain } from '../../repositories/usage.ts';
import { applySpendCapToggleIn } from '../spend-cap/apply-toggle.ts';
import { spendCapToggles } from '../spend-cap/cycle-ledger.ts';
import { issueChangeInvoice } from './issue-change-invoice.ts';
import { lockOrganization, observeRestriction } from '../restrictions/restrictions.ts';
import { enqueueWebhookEvent } from '../webhooks/enqueue-webhook.ts';
import { recordAudit, storedAuditContext } from '../../repositories/record-audit.ts';
import { applyStoredProfileUpdate } from '../payment-methods/profile-update.ts';

export const REFUND_CHANGE_NOT_PENDING =
  'The plan change had expired or failed before this payment completed.';
export const REFUND_SUBSCRIPTION_MOVED =
  'The subscription changed before this payment completed, so the plan change could not be applied.';

const fromSeconds = (value: number) => new Date(value * 1000);
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

interface StoredUsageRow {
  cycle_start: string;
  project_id: string;
  metric: string;
  resource: string;
  usage_sum: string;
  usage_max: string;
  samples: number;
}

/**
 * Applies a priced plan change, in the caller's transaction: the one that records its payment as
 * succeeded (settle-charge), or the request's own when nothing was due. The change invoice is issued,
 * paid (by the card, the balance, or billed via the partner); the ending cycle is recorded as closed at
 * the change with the usage it billed; the subscription moves to the new plan with a new cycle starting
 * at the change; a downgrade to Free ends every add-on and moves compute to the free instance; the paying
 * card becomes the default; an upgrade lifts a restriction for usage. Only a pending change, on the
 * subscription it was priced against, is applied: otherwise nothing changes and the reason is answered,
 * so that money taken for it is refunded.
 */
export async function applyPlanChangeIn(
  trx: Db,
  planChangeId: string,
  wallNow: Date,
): Promise<string | null> {
  const change = await trx
    .selectFrom('plan_changes')
    .selectAll()
    .where('id', '=', planChangeId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  if (change.status === 'applied') return null;
  if (change.status !== 'pending') return REFUND_CHANGE_NOT_PENDING;
  if (change.kind === 'spend_cap') {
    return applySpendCapToggleIn(trx, change, wallNow, REFUND_SUBSCRIPTION_MOVED);
  }
  const organizationId = change.organization_id;
  const subscription = await lockSubscription(trx, organizationId);
  // Subscription, then organization, then cards: the order every writer takes them in.
  await lockOrganization(trx, organizationId);
  const unchanged =
    subscription.plan_id === change.from_plan &&
    subscription.usage_billing_enabled === change.from_usage_billing_enabled &&
    subscription.current_period_start.getTime() === change.cycle_start.getTime() &&
    subscription.current_period_end.getTime() === change.cycle_end.getTime() &&
    (change.billed_via_partner ||
      subscription.customer_balance_cents >= change.credit_applied_cents);
  if (!unchanged) {
    await resolve(trx, planChangeId, 'failed', wallNow, REFUND_SUBSCRIPTION_MOVED);
    return REFUND_SUBSCRIPTION_MOVED;
  }

  await applyStoredProfileUpdate(trx, change, wallNow);
  const at = change.changed_at;
  const total = Number(change.total_cents);
  const creditApplied = Number(change.credit_applied_cents);

  await recordClosedCycle(trx, {
    organizationId,
    cycleStart: change.cycle_start,
    cycleEnd: at,
    // Cut short at the change: its late usage is priced by the part of the month it ran.
    scheduledEnd: change.cycle_end,
    planId: change.from_plan,
    usageBillingEnabled: change.from_usage_billing_enabled,
    projects: change.projects,
    closedAt: wallNow,
    spendCapBilled: await spendCapBilledOfChange(trx, change),
  });
  await recordBilledUsage(
    trx,
    organizationId,
    (change.billed_usage as StoredUsageRow[]).map((row) => ({
      ...row,
      cycle_start: new Date(row.cycle_start),
    })),
  );

  const invoiceId = await issueChangeInvoice(trx, change, wallNow);

  const newEnd = fromSeconds(addMonthsClamped(seconds(at), 1));
  const credited = creditedToBalance(total, change.billed_via_partner);
  await trx
    .updateTable('subscriptions')
    .set((eb) => ({
      plan_id: change.to_plan,
      usage_billing_enabled: change.to_usage_billing_enabled,
      billing_cycle_anchor: at,
      current_period_start: at,
      current_period_end: newEnd,
      customer_balance_cents: eb('customer_balance_cents', '+', credited - creditApplied),
      billing_version: eb('billing_version', '+', 1),
      // Usage of the ending cycle that arrived after it was priced is billed by the next close.
      late_usage_since: sql<Date>`least(coalesce(late_usage_since, ${change.cycle_start}), ${change.cycle_start})`,
      scheduled_plan_id: null,
      scheduled_usage_billing_enabled: null,
      scheduled_at: null,
    }))
    .where('organization_id', '=', organizationId)
    .execute();

  // The new cycle starts at the change's moment, which may lie minutes before this transaction (3-D
  // Secure) or before the old cycle's planned end (a quote): usage stamped from it on was counted in
  // the cycle that was current then, or the one after; it belongs to the new cycle (§15).
  const anchor = seconds(at);
  await placeEventsAgain(trx, organizationId, { at, cycleStart: change.cycle_start }, (ts) =>
    ts >= anchor ? fromSeconds(cycleContaining(anchor, ts).start) : change.cycle_start,
  );

  if (change.to_plan === 'free') await moveToFreeInstances(trx, organizationId, at);
  if (change.payment_method_id && change.charge_today_cents > 0) {
    await makeDefaultPaymentMethod(trx, organizationId, change.payment_method_id);
  }
  // An upgrade lifts a restriction for usage (not one for an overdue payment), as it is applied.
  if (planChangeType(change.from_plan, change.to_plan) === 'upgrade') {
    await observeRestriction(trx, organizationId, { kind: 'plan_upgraded' }, wallNow);
  }
  await trx
    .updateTable('plan_changes')
    .set({ status: 'applied', invoice_id: invoiceId, resolved_at: wallNow })
    .where('id', '=', planChangeId)
    .execute();
  await recordAudit(trx, storedAuditContext(change.audit_context), {
    organizationId,
    action: 'plan.changed',
    target: { type: 'subscription', id: organizationId },
    before: { plan: change.from_plan, spend_cap: !change.from_usage_billing_enabled },
    after: {
      plan: change.to_plan,
      spend_cap: !change.to_usage_billing_enabled,
      charged_cents: change.charge_today_cents,
      invoice_id: invoiceId,
    },
    at: wallNow,
  });
  await enqueueBillingEmail(trx, organizationId, planChangeId, {
    kind: 'plan.changed',
    fromPlan: BILLING_PLANS[change.from_plan].name,
    toPlan: BILLING_PLANS[change.to_plan].name,
    chargedCents: change.charge_today_cents,
    creditedCents: credited,
  });
  await enqueueWebhookEvent(
    trx,
    organizationId,
    'subscription.updated',
    {
      object: 'subscription',
      change: 'plan',
      plan_change_id: planChangeId,
      previous_plan: change.from_plan,
      plan: change.to_plan,
      spend_cap_enabled: !change.to_usage_billing_enabled,
      current_period_start: seconds(at),
      current_period_end: seconds(newEnd),
      invoice_id: invoiceId,
      amount_charged_cents: change.charge_today_cents,
    },
    planChangeId,
  );
  return null;
}

/**
 * With the spend cap toggled in the ending cycle, what its invoices billed of the capped overage: the
 * turn-on invoices' amounts and what the change invoice settles (kept with the quote); else null.
 */
async function spendCapBilledOfChange(
  trx: Db,
  change: { organization_id: string; cycle_start: Date; spend_cap_billed: CappedOverage | null },
): Promise<CappedOverage | null> {
  const toggles = await spendCapToggles(trx, change.organization_id, change.cycle_start);
  if (toggles.length === 0) return null;
  return addOverage([...toggles.map((toggle) => toggle.billed), change.spend_cap_billed ?? {}]);
}

/** Free projects run on the free instance, without add-ons, replicas or branches (from `at`). */
export async function moveToFreeInstances(
  trx: Db,
  organizationId: string,
  at: Date,
): Promise<void> {
  await trx
    .updateTable('project_addons')
    .set({ ended_at: at })
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', at)]))
    .execute();
  await trx
    .updateTable('project_compute_resources')
    .set({ ended_at: at })
    .where('organization_id', '=', organizationId)
    .where((eb) => eb.or([eb('ended_at', 'is', null), eb('ended_at', '>', at)]))
    .execute();
  await trx
    .updateTable('projects')
    .set({ compute_size: 'nano' })
    .where('organization_id', '=', organizationId)
    .execute();
}

/** Marks a pending change as ended without effect (its payment failed, it expired, or it moved). */
export async function resolve(
  trx: Db,
  planChangeId: string,
  status: 'failed' | 'expired',
  at: Date,
  message: string | null,
): Promise<void> {
  await trx
    .updateTable('plan_changes')
    .set({ status, resolved_at: at, failure_message: message })
    .where('id', '=', planChangeId)
    .where('status', '=', 'pending')
    .execute();
}
