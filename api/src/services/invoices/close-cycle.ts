import { BILLING_JOB, recordAudit } from '../../repositories/record-audit.ts';
import { enqueueBillingEmail } from '../notifications/enqueue-email.ts';
import { enqueueWebhookEvent } from '../webhooks/enqueue-webhook.ts';
import {
  accruedInvoiceLines,
  addOverage,
  invoiceTotal,
  nextCycle,
  projectedInvoiceLines,
  spendCapCloseLines,
  spendCapSettledAt,
} from '@meterline/domain';
import { moveToFreeInstances } from '../plan-changes/apply-plan-change.ts';
import type { Db } from '../../db/database.ts';
import { recordBilledUsage, recordClosedCycle } from '../../repositories/closed-cycles.ts';
import { insertInvoice } from '../../repositories/invoices.ts';
import { lockSubscription, tryLockSubscription } from '../../repositories/subscriptions.ts';
import { billingIdentity } from '../../repositories/billing-identity.ts';
import { closesAt } from '../../lib/close-grace.ts';
import { loadCycleData } from '../subscription/cycle-data.ts';
import { newId } from '../../lib/ids.ts';
import { nextInvoiceNumber } from './invoice-number.ts';
import { recordLateUsageBilled } from '../usage/late-usage.ts';
import { observeRestriction } from '../restrictions/restrictions.ts';
import { exceededInCycle } from '../restrictions/usage-restriction.ts';

export type CloseCycleResult =
  | { status: 'not_due'; periodEnd: Date }
  | { status: 'closed'; invoiceId: string; amountDueCents: number; chargeable: boolean }
  | { status: 'nothing_to_bill' }
  /** `skipLocked` only: another transaction holds the subscription (another process is closing it). */
  | { status: 'busy' };

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
const fromSeconds = (value: number) => new Date(value * 1000);

/**
 * Finalizes the organization's current cycle if it ended at least `graceMinutes` before `at` (usage
 * reported late still counts): the upcoming invoice at the cycle's end, with the usage that reached
 * earlier cycles after they closed, becomes an immutable numbered invoice, the credit balance is applied
 * first, and the subscription moves to the next cycle. The cycle's roll-ups are recorded as billed, as
 * read, with the rules it closed under, so usage that reaches it later is billed once, on the next
 * invoice, and the restriction lifecycle is told the cycle closed, above or under its quotas. It all happens under the subscription's row lock in one transaction, and the invoice is
 * unique per (organization, period start): a second closer, concurrent or late, finds nothing due.
 * Charging happens after commit (see collect-invoice), so a crash never leaves a charge without an invoice.
 * With `skipLocked`, a subscription locked by another transaction is left to it (`busy`) instead of
 * waited for: the billing job in several processes at once shares the organizations out this way.
 */
export async function closeCycle(
  db: Db,
  organizationId: string,
  at: Date,
  graceMinutes: number,
  options: { skipLocked?: boolean } = {},
): Promise<CloseCycleResult> {
  return db.transaction().execute(async (trx) => {
    const subscription = options.skipLocked
      ? await tryLockSubscription(trx, organizationId)
      : await lockSubscription(trx, organizationId);
    if (!subscription) return { status: 'busy' };
    if (closesAt(subscription.current_period_end, graceMinutes) > at) {
      return { status: 'not_due', periodEnd: subscription.current_period_end };
    }
    const periodStart = subscription.current_period_start;
    const periodEnd = subscription.current_period_end;
    const data = await loadCycleData(
      trx,
      {
        organizationId,
        planId: subscription.plan_id,
        usageBillingEnabled: subscription.usage_billing_enabled,
        periodStart,
        periodEnd,
        lateUsageSince: subscription.late_usage_since,
      },
      periodEnd,
    );
    // A downgrade scheduled for this cycle's end (hosting partner) takes effect with the close: the
    // next cycle's fee, in advance, is the new plan's.
    const scheduled =
      subscription.scheduled_plan_id &&
      subscription.scheduled_at &&
      subscription.scheduled_at <= periodEnd
        ? {
            planId: subscription.scheduled_plan_id,
            usageBillingEnabled: subscription.scheduled_usage_billing_enabled ?? false,
          }
        : null;
    // With the spend cap toggled this cycle, its capped overage is what the cap-off intervals bill
    // and the turn-on invoices have not billed yet (product-decisions §10).
    const [planLine, ...usageLines] = data.spendCap
      ? spendCapCloseLines(data.input, data.spendCap)
      : projectedInvoiceLines(data.input);
    const nextPlanLine = scheduled
      ? accruedInvoiceLines({
          ...data.input,
          planId: scheduled.planId,
          usageBillingEnabled: scheduled.usageBillingEnabled,
        })[0]
      : planLine;
    const projected = [nextPlanLine, ...usageLines].filter((line) => line !== undefined);
    const lines = [...projected, ...data.late.lines];
    const subtotal = invoiceTotal(lines);
    const next = nextCycle(seconds(subscription.billing_cycle_anchor), seconds(periodEnd));

    await recordClosedCycle(trx, {
      organizationId,
      cycleStart: periodStart,
      cycleEnd: periodEnd,
      scheduledEnd: periodEnd,
      planId: subscription.plan_id,
      usageBillingEnabled: subscription.usage_billing_enabled,
      projects: data.input.projects,
      closedAt: at,
      // With the cap toggled, what its invoices billed of the capped overage: late usage of this
      // cycle is settled against it by the cycle's own cap intervals.
      spendCapBilled: data.spendCap
        ? addOverage([
            data.spendCap.billed,
            spendCapSettledAt(data.input, data.spendCap, seconds(periodEnd)),
          ])
        : null,
    });
    await recordBilledUsage(
      trx,
      organizationId,
      data.usageRows.map((row) => ({ ...row, cycle_start: periodStart })),
    );
    await recordLateUsageBilled(trx, organizationId, data.late);

    // Partner-billed organizations are invoiced by their partner; free cycles owe nothing.
    const billsHere = !subscription.billing_via_partner && subtotal > 0;
    const credit = billsHere
      ? Math.min(Math.max(subscription.customer_balance_cents, 0), subtotal)
      : 0;
    await trx
      .updateTable('subscriptions')
      .set({
        current_period_start: fromSeconds(next.start),
        current_period_end: fromSeconds(next.end),
        customer_balance_cents: subscription.customer_balance_cents - credit,
        // Read and recorded as billed above; ingestion sets it again for what arrives from now on.
        late_usage_since: null,
        ...(scheduled
          ? {
              plan_id: scheduled.planId,
              usage_billing_enabled: scheduled.usageBillingEnabled,
              scheduled_plan_id: null,
              scheduled_usage_billing_enabled: null,
              scheduled_at: null,
            }
          : {}),
      })
      .where('organization_id', '=', organizationId)
      .execute();
    if (scheduled?.planId === 'free') await moveToFreeInstances(trx, organizationId, periodEnd);
    if (scheduled) {
      await recordAudit(trx, BILLING_JOB, {
        organizationId,
        action: 'plan.changed',
        target: { type: 'subscription', id: organizationId },
        before: { plan: subscription.plan_id, spend_cap: !subscription.usage_billing_enabled },
        after: {
          plan: scheduled.planId,
          spend_cap: !scheduled.usageBillingEnabled,
          scheduled: true,
        },
        at,
      });
    }
    // The restriction lifecycle hears of the close once, with it: under every quota clears a grace
    // period, above them it goes on (product-decisions §11). The organization's lock comes after the
    // subscription's, as in a plan change; nothing takes them the other way round.
    const exceeded = exceededInCycle(
      subscription.plan_id,
      subscription.usage_billing_enabled,
      data,
    );
    const cycleStart = seconds(periodStart);
    // Observed at the cycle's end, when it happened, even when the job closes it late (catching up).
    await observeRestriction(
      trx,
      organizationId,
      { kind: 'cycle_closed', cycleStart, exceeded },
      new Date(Math.min(at.getTime(), periodEnd.getTime())),
    );
    if (!billsHere) return { status: 'nothing_to_bill' };

    const amountDue = subtotal - credit;
    const chargeable = amountDue > 0 && subscription.payment_method_type === 'card';
    const identity = await billingIdentity(trx, organizationId);
    const invoiceId = newId('in');
    const { number, sequence } = await nextInvoiceNumber(trx, organizationId);
    await insertInvoice(trx, {
      id: invoiceId,
      organizationId,
      number,
      sequence,
      status: amountDue === 0 ? 'paid' : 'open',
      periodStart,
      periodEnd,
      subtotalCents: subtotal,
      creditAppliedCents: credit,
      amountDueCents: amountDue,
      // A card invoice is due for collection at once; the job picks it up even if we crash right after.
      nextPaymentAttemptAt: chargeable ? at : null,
      ...identity,
      planId: subscription.plan_id,
      finalizedAt: at,
      lines,
    });
    await enqueueBillingEmail(trx, organizationId, invoiceId, {
      kind: 'invoice.finalized',
      invoiceId,
      number,
      periodStart: seconds(periodStart),
      periodEnd: seconds(periodEnd),
      subtotalCents: subtotal,
      creditAppliedCents: credit,
      amountDueCents: amountDue,
      collectedByCard: chargeable,
    });
    const invoiceData = {
      object: 'invoice',
      invoice_id: invoiceId,
      number,
      status: amountDue === 0 ? 'paid' : 'open',
      period_start: seconds(periodStart),
      period_end: seconds(periodEnd),
      subtotal_cents: subtotal,
      credit_applied_cents: credit,
      amount_due_cents: amountDue,
      currency: 'usd',
    };
    await enqueueWebhookEvent(trx, organizationId, 'invoice.finalized', invoiceData, invoiceId);
    if (amountDue === 0) {
      await enqueueWebhookEvent(trx, organizationId, 'invoice.paid', invoiceData, invoiceId);
    }
    return { status: 'closed', invoiceId, amountDueCents: amountDue, chargeable };
  });
}
