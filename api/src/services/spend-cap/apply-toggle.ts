import { enqueueBillingEmail } from '../notifications/enqueue-email.ts';
import {
  cappedOverageReading,
  type CappedOverage,
  type UpcomingInvoiceLine,
} from '@meterline/domain';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PlanChangesTable } from '../../db/schema.ts';
import { makeDefaultPaymentMethod } from '../../repositories/payment-methods.ts';
import { lockSubscription, type SubscriptionState } from '../../repositories/subscriptions.ts';
import { loadCycleData } from '../subscription/cycle-data.ts';
import { issueChangeInvoice } from '../plan-changes/issue-change-invoice.ts';
import { applyStoredProfileUpdate } from '../payment-methods/profile-update.ts';
import { lockOrganization, observeRestriction } from '../restrictions/restrictions.ts';
import { enqueueWebhookEvent } from '../webhooks/enqueue-webhook.ts';
import { recordAudit, storedAuditContext } from '../../repositories/record-audit.ts';

/**
 * Applies a priced toggle of the spend cap (product-decisions §10) in the caller's transaction: the one
 * that records its payment as succeeded, or the request's own when nothing was due. Turning the cap on
 * issues its invoice for the overage accrued while it was off (paid by the card or the balance; none
 * when nothing accrued); either way the toggle is recorded with its reading and what it billed, the
 * subscription's setting flips (the cycle does not move) and, turning it off, a usage restriction is
 * lifted. `subscriptionMoved` is the reason answered when the subscription is no longer the one the
 * toggle was priced against: nothing changes then, so money taken for it is refunded.
 */
export async function applySpendCapToggleIn(
  trx: Db,
  change: Selectable<PlanChangesTable>,
  wallNow: Date,
  subscriptionMoved: string,
): Promise<string | null> {
  const organizationId = change.organization_id;
  const subscription = await lockSubscription(trx, organizationId);
  // Subscription, then organization, then cards: the order every writer takes them in.
  await lockOrganization(trx, organizationId);
  const creditApplied = Number(change.credit_applied_cents);
  const unchanged =
    subscription.plan_id === change.from_plan &&
    subscription.usage_billing_enabled === change.from_usage_billing_enabled &&
    subscription.current_period_start.getTime() === change.cycle_start.getTime() &&
    subscription.current_period_end.getTime() === change.cycle_end.getTime() &&
    (change.billed_via_partner || subscription.customer_balance_cents >= creditApplied);
  if (!unchanged) {
    await trx
      .updateTable('plan_changes')
      .set({ status: 'failed', resolved_at: wallNow, failure_message: subscriptionMoved })
      .where('id', '=', change.id)
      .where('status', '=', 'pending')
      .execute();
    return subscriptionMoved;
  }

  await applyStoredProfileUpdate(trx, change, wallNow);
  const lines = change.lines as UpcomingInvoiceLine[];
  const invoiceId = lines.length > 0 ? await issueChangeInvoice(trx, change, wallNow) : null;

  await trx
    .updateTable('subscriptions')
    .set((eb) => ({
      usage_billing_enabled: change.to_usage_billing_enabled,
      customer_balance_cents: eb('customer_balance_cents', '-', creditApplied),
      billing_version: eb('billing_version', '+', 1),
    }))
    .where('organization_id', '=', organizationId)
    .execute();
  // The cap changes when the toggle is applied (after 3-D Secure, perhaps minutes after it was priced):
  // recorded then, with the overage read then, so usage in between is billed by the close, once.
  const at = new Date(
    Math.min(wallNow.getTime(), subscription.current_period_end.getTime() - 1000),
  );
  const reading = await overageReadingAt(trx, organizationId, subscription, at);
  await trx
    .insertInto('spend_cap_toggles')
    .values({
      organization_id: organizationId,
      cycle_start: change.cycle_start,
      at,
      cap_on: !change.to_usage_billing_enabled,
      reading: JSON.stringify(reading),
      billed: JSON.stringify(change.spend_cap_billed ?? {}),
      plan_change_id: change.id,
    })
    .execute();
  if (change.payment_method_id && change.charge_today_cents > 0) {
    await makeDefaultPaymentMethod(trx, organizationId, change.payment_method_id);
  }
  // Usage beyond the quota is billed from now on, not limited: a usage restriction has no ground.
  if (change.to_usage_billing_enabled) {
    await observeRestriction(trx, organizationId, { kind: 'spend_cap_turned_off' }, wallNow);
  }
  await trx
    .updateTable('plan_changes')
    .set({ status: 'applied', invoice_id: invoiceId, resolved_at: wallNow })
    .where('id', '=', change.id)
    .execute();
  await recordAudit(trx, storedAuditContext(change.audit_context), {
    organizationId,
    action: 'spend_cap.updated',
    target: { type: 'subscription', id: organizationId },
    before: { spend_cap: !change.from_usage_billing_enabled },
    after: {
      spend_cap: !change.to_usage_billing_enabled,
      charged_cents: change.charge_today_cents,
      invoice_id: invoiceId,
    },
    at: wallNow,
  });
  await enqueueBillingEmail(trx, organizationId, change.id, {
    kind: 'spend_cap.changed',
    capOn: !change.to_usage_billing_enabled,
    chargedCents: change.charge_today_cents,
  });
  await enqueueWebhookEvent(
    trx,
    organizationId,
    'subscription.updated',
    {
      object: 'subscription',
      change: 'spend_cap',
      plan_change_id: change.id,
      plan: subscription.plan_id,
      spend_cap_enabled: !change.to_usage_billing_enabled,
      invoice_id: invoiceId,
      amount_charged_cents: change.charge_today_cents,
    },
    change.id,
  );
  return null;
}

/** Each capped line's cap-off amount for the cycle's usage so far, read in the caller's transaction. */
async function overageReadingAt(
  trx: Db,
  organizationId: string,
  subscription: SubscriptionState,
  at: Date,
): Promise<CappedOverage> {
  const data = await loadCycleData(
    trx,
    {
      organizationId,
      planId: subscription.plan_id,
      usageBillingEnabled: subscription.usage_billing_enabled,
      periodStart: subscription.current_period_start,
      periodEnd: subscription.current_period_end,
      lateUsageSince: null,
    },
    at,
  );
  return cappedOverageReading(
    subscription.plan_id,
    Math.floor(at.getTime() / 1000),
    data.input.usage,
  ).amounts;
}
