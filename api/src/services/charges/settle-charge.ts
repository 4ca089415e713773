import { cardLabel, enqueueBillingEmail } from '../notifications/enqueue-email.ts';
import { enqueueWebhookEvent } from '../webhooks/enqueue-webhook.ts';
import type { Db } from '../../db/database.ts';
import { lockCharge, type ChargeRow } from '../../repositories/charges.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import { applyPlanChangeIn, resolve } from '../plan-changes/apply-plan-change.ts';
import { liftOverdueRestriction } from '../restrictions/restrictions.ts';
import type { PaymentIntentState } from '../../adapters/payment-gateway.ts';
import { chargedCard, recordPaymentFailure } from './audit-payment.ts';
import { recordAudit, storedAuditContext } from '../../repositories/record-audit.ts';
import { applyStoredProfileUpdate } from '../payment-methods/profile-update.ts';
import { refundOwed } from './refund-charge.ts';
import type { PaymentDeps } from './payment-deps.ts';

/** How long a payment may wait for the customer's 3-D Secure answer before it is abandoned. */
export const ACTION_TIMEOUT_MS = 60 * 60_000;

export const REFUND_INVOICE_PAID = 'The invoice had already been paid by another payment.';
export const REFUND_INVOICE_VOID = 'The invoice was forgiven before this payment completed.';

/**
 * Settles a charge (its own transaction), then gives back money that no longer had anything to pay. The
 * refund is a provider call, so it happens after commit; a failure leaves it `pending` on the charge row
 * for the billing job's reconciliation to try again, under the same key, so it is never paid out twice.
 */
export async function settleCharge(
  deps: PaymentDeps,
  chargeId: string,
  state: PaymentIntentState,
  at: Date,
): Promise<ChargeRow> {
  const settled = await deps.db
    .transaction()
    .execute((trx) => settleChargeIn(trx, chargeId, state, at));
  return refundOwed(deps, settled);
}

/**
 * The state machine of a charge, one transition per call, under a row lock:
 *
 *   pending ──> requires_action ──> succeeded
 *      │              │                 ^
 *      ├──────────────┴──> failed ──────┘ (only when the provider says the money moved after all)
 *      └──> succeeded
 *
 * The effect of the money (a top-up's credit, an invoice marked paid) happens in the same transaction as
 * the move into `succeeded`, and only on that move: whoever settles first (the request, a retry, the
 * provider's event) applies it, everyone after finds it done. A failure never undoes a success. A success
 * for an invoice that no longer needed paying (paid by another charge, forgiven) is kept as a success and
 * marked for refund in the same transaction; the refund itself goes to the provider after commit
 * (refund-charge), so no money taken is ever left unaccounted for.
 */
export async function settleChargeIn(
  trx: Db,
  chargeId: string,
  state: PaymentIntentState,
  at: Date,
  /** Wall-clock time of the settlement (row times, 3-D Secure expiry); `at` dates the payment. */
  wallNow: Date = at,
): Promise<ChargeRow> {
  // Locks are always taken invoice first, then charge (as collecting and paying do), so two settlers of
  // the same payment wait for each other instead of deadlocking.
  const owner = await trx
    .selectFrom('charges')
    .select('invoice_id')
    .where('id', '=', chargeId)
    .executeTakeFirst();
  if (owner?.invoice_id) await lockInvoice(trx, owner.invoice_id);
  const charge = await lockCharge(trx, chargeId);
  if (!charge) throw new Error(`No charge ${chargeId}`);
  const providerRef = state.providerRef ?? charge.provider_ref;

  switch (state.status) {
    case 'succeeded': {
      if (charge.status === 'succeeded') return charge;
      const updated = await update(trx, chargeId, {
        status: 'succeeded',
        provider_ref: providerRef,
        failure_message: null,
        action_expires_at: null,
        updated_at: wallNow,
      });
      const refundReason = await applyEffect(trx, updated, at, wallNow);
      if (!refundReason) return updated;
      return update(trx, chargeId, {
        provider_ref: providerRef,
        refund_status: 'pending',
        refund_reason: refundReason,
        updated_at: wallNow,
      });
    }
    case 'failed':
      if (charge.status !== 'pending' && charge.status !== 'requires_action') return charge;
      if (charge.plan_change_id) await endPlanChange(trx, charge.plan_change_id, state, wallNow);
      await recordPaymentFailure(trx, charge, state.message, wallNow);
      return update(trx, chargeId, {
        status: 'failed',
        provider_ref: providerRef,
        failure_message: state.message,
        action_expires_at: null,
        updated_at: wallNow,
      });
    case 'requires_action':
      if (charge.status !== 'pending') return charge;
      return update(trx, chargeId, {
        status: 'requires_action',
        provider_ref: providerRef,
        action_expires_at: new Date(wallNow.getTime() + ACTION_TIMEOUT_MS),
        updated_at: wallNow,
      });
    case 'processing':
      if (charge.status !== 'pending' || charge.provider_ref === providerRef) return charge;
      return update(trx, chargeId, { provider_ref: providerRef, updated_at: wallNow });
  }
}

function update(
  trx: Db,
  chargeId: string,
  values: {
    status?: ChargeRow['status'];
    provider_ref: string | null;
    failure_message?: string | null;
    action_expires_at?: Date | null;
    refund_status?: 'pending';
    refund_reason?: string;
    updated_at: Date;
  },
): Promise<ChargeRow> {
  return trx
    .updateTable('charges')
    .set(values)
    .where('id', '=', chargeId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A plan change whose payment failed changes nothing; past its hour it has expired instead. */
async function endPlanChange(
  trx: Db,
  planChangeId: string,
  state: { message: string },
  wallNow: Date,
): Promise<void> {
  const change = await trx
    .selectFrom('plan_changes')
    .select('expires_at')
    .where('id', '=', planChangeId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const expired = change.expires_at <= wallNow;
  await resolve(trx, planChangeId, expired ? 'expired' : 'failed', wallNow, state.message);
}

/** Applies what the money was for; answers why it must be refunded when it no longer could be. */
async function applyEffect(
  trx: Db,
  charge: ChargeRow,
  at: Date,
  wallNow: Date,
): Promise<string | null> {
  const audit = storedAuditContext(charge.audit_context);
  if (charge.purpose === 'plan_change') {
    if (!charge.plan_change_id) throw new Error(`Charge ${charge.id}: no plan change`);
    return applyPlanChangeIn(trx, charge.plan_change_id, at);
  }
  if (charge.purpose === 'top_up') {
    const credited = await trx
      .updateTable('subscriptions')
      .set((eb) => ({
        customer_balance_cents: eb('customer_balance_cents', '+', charge.amount_cents),
      }))
      .where('organization_id', '=', charge.organization_id)
      .executeTakeFirst();
    if (credited.numUpdatedRows !== 1n) {
      throw new Error(`Top-up ${charge.id}: the organization has no subscription to credit`);
    }
    await applyStoredProfileUpdate(trx, charge, wallNow);
    const { customer_balance_cents: balance } = await trx
      .selectFrom('subscriptions')
      .select('customer_balance_cents')
      .where('organization_id', '=', charge.organization_id)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, audit, {
      organizationId: charge.organization_id,
      action: 'credits.topped_up',
      target: { type: 'credit_top_up', id: charge.id },
      before: { balance_cents: balance - charge.amount_cents },
      after: {
        balance_cents: balance,
        amount_cents: charge.amount_cents,
        card: await chargedCard(trx, charge),
      },
      at: wallNow,
    });
    await enqueueBillingEmail(trx, charge.organization_id, charge.id, {
      kind: 'credits.topped_up',
      amountCents: charge.amount_cents,
      balanceCents: balance,
      card: await cardLabel(trx, charge.payment_method_id),
    });
    await enqueueWebhookEvent(
      trx,
      charge.organization_id,
      'credits.topped_up',
      {
        object: 'credit_top_up',
        charge_id: charge.id,
        amount_cents: charge.amount_cents,
        currency: 'usd',
        credited_at: Math.floor(at.getTime() / 1000),
      },
      charge.id,
    );
    return null;
  }
  if (!charge.invoice_id) return null;
  const invoice = await lockInvoice(trx, charge.invoice_id);
  if (!invoice) throw new Error(`Charge ${charge.id}: no invoice ${charge.invoice_id}`);
  if (invoice.status !== 'open' && invoice.status !== 'uncollectible') {
    return invoice.status === 'void' ? REFUND_INVOICE_VOID : REFUND_INVOICE_PAID;
  }
  await trx
    .updateTable('invoices')
    .set({
      status: 'paid',
      amount_paid_cents: invoice.amount_due_cents,
      paid_at: at,
      payment_attempted: true,
      next_payment_attempt_at: null,
    })
    .where('id', '=', invoice.id)
    .execute();
  await recordAudit(trx, audit, {
    organizationId: invoice.organization_id,
    action: 'invoice.paid',
    target: { type: 'invoice', id: invoice.id },
    before: { status: invoice.status },
    after: {
      status: 'paid',
      number: invoice.number,
      amount_paid_cents: invoice.amount_due_cents,
      card: await chargedCard(trx, charge),
      ...(charge.backup_of_charge_id ? { paid_with_backup_card: true } : {}),
    },
    at: wallNow,
  });
  await liftOverdueRestriction(trx, invoice.organization_id, at);
  // The receipt, once per invoice: it is paid only once.
  await enqueueBillingEmail(trx, invoice.organization_id, invoice.id, {
    kind: 'payment.succeeded',
    invoiceId: invoice.id,
    invoiceNumber: invoice.number,
    amountCents: invoice.amount_due_cents,
    paidAt: Math.floor(at.getTime() / 1000),
    card: await cardLabel(trx, charge.payment_method_id),
    ...(charge.backup_of_charge_id ? { paidWithBackup: true } : {}),
  });
  await enqueueWebhookEvent(
    trx,
    invoice.organization_id,
    'invoice.paid',
    {
      object: 'invoice',
      invoice_id: invoice.id,
      number: invoice.number,
      status: 'paid',
      amount_paid_cents: invoice.amount_due_cents,
      currency: 'usd',
      paid_at: Math.floor(at.getTime() / 1000),
      charge_id: charge.id,
      // The engine fell back to the backup card after the default card declined (decision 016).
      paid_with_backup_card: charge.backup_of_charge_id !== null,
    },
    invoice.id,
  );
  return null;
}
