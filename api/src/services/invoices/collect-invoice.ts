import { cardLabel, enqueueBillingEmail } from '../notifications/enqueue-email.ts';
import { enqueueWebhookEvent } from '../webhooks/enqueue-webhook.ts';
import {
  findChargeByKey,
  insertPendingCharge,
  openInvoiceCharges,
  recordChargeIntent,
} from '../../repositories/charges.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import { getDefaultPaymentMethod } from '../../repositories/payment-methods.ts';
import { NEVER_REACHED_PROVIDER, settleOpenInvoiceCharges } from '../charges/open-charges.ts';
import type { PaymentDeps } from '../charges/payment-deps.ts';
import type { PaymentIntentState } from '../../adapters/payment-gateway.ts';
import { refundOwed } from '../charges/refund-charge.ts';
import { settleChargeIn } from '../charges/settle-charge.ts';
import { chargeBackupCard, type BackupAttempt } from './charge-backup-card.ts';
import { newId } from '../../lib/ids.ts';

/** Automatic retries after a failed charge: days after finalization. */
export const RETRY_DAYS = [3, 5, 7] as const;
const DAY_MS = 86_400_000;

export const NO_DEFAULT_CARD = 'There is no default payment method to charge.';

export type CollectResult =
  | { status: 'paid' }
  | { status: 'failed'; message: string; nextAttemptAt: Date | null }
  | { status: 'requires_action'; clientSecret: string }
  | { status: 'processing' }
  | { status: 'skipped'; reason: 'not_open' | 'not_due' | 'payment_in_progress' };

export interface CollectOptions {
  /** The billing time of the run (an operator may run the job "as of" another moment). */
  at: Date;
  /** automatic: the billing job, off session, with the default card; pay_now: the customer, on session. */
  trigger: 'automatic' | 'pay_now';
  /** pay_now only: the saved card the customer chose (defaults to the default card). */
  paymentMethodId?: string;
  /** pay_now only: the client's idempotency key. */
  idempotencyKey?: string;
}

/**
 * Tries to collect an open invoice with a saved card. Any other payment of the invoice is first brought to
 * where the provider says it is (settled, or cancelled when its 3-D Secure challenge has expired); one
 * still in flight means no new attempt starts. A charge row is written before the provider is called,
 * under a key that names the attempt, so a crash between the two repeats the same provider call, which
 * the provider answers from its record instead of charging again. The outcome goes through the charge's
 * guarded state machine (settle-charge): the invoice is marked paid only in the transaction that moves
 * the charge into `succeeded`. A payment still processing at the provider is neither paid nor failed.
 */
export async function collectInvoice(
  deps: PaymentDeps,
  invoiceId: string,
  options: CollectOptions,
): Promise<CollectResult> {
  const { db, gateway, clock } = deps;
  const due = await db
    .selectFrom('invoices')
    .select(['status', 'attempt_count', 'next_payment_attempt_at'])
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!due || due.status !== 'open') return { status: 'skipped', reason: 'not_open' };
  if (
    options.trigger === 'automatic' &&
    (!due.next_payment_attempt_at || due.next_payment_attempt_at > options.at)
  ) {
    return { status: 'skipped', reason: 'not_due' };
  }
  const payNowKey = `invoice:${invoiceId}:pay:${options.idempotencyKey ?? newId('ch')}`;
  const keyOf = (attempt: number) =>
    options.trigger === 'automatic' ? `invoice:${invoiceId}:attempt:${attempt}` : payNowKey;
  // Every open payment of the invoice, this attempt's own included (an earlier run of it may have lost
  // its answer, or still be processing), is first brought to where the provider says it is. An
  // attempt's charge is never sent to the provider a second time.
  const standing = await settleOpenInvoiceCharges(deps, invoiceId, '');
  if (standing === 'in_flight') return { status: 'skipped', reason: 'payment_in_progress' };

  const prepared = await db.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, invoiceId);
    if (!invoice || invoice.status !== 'open') return { skip: 'not_open' as const };
    if (
      options.trigger === 'automatic' &&
      (!invoice.next_payment_attempt_at || invoice.next_payment_attempt_at > options.at)
    ) {
      return { skip: 'not_due' as const };
    }
    if ((await openInvoiceCharges(trx, invoice.id, '')).length > 0) {
      return { skip: 'payment_in_progress' as const };
    }
    let attempt = invoice.attempt_count + 1;
    let key = keyOf(attempt);
    let earlier = await findChargeByKey(trx, key);
    // An attempt that never reached the provider was no attempt: the next number is tried at once.
    while (options.trigger === 'automatic' && earlier?.failure_message === NEVER_REACHED_PROVIDER) {
      attempt += 1;
      key = keyOf(attempt);
      earlier = await findChargeByKey(trx, key);
    }
    if (attempt > invoice.attempt_count + 1) {
      await trx
        .updateTable('invoices')
        .set({ attempt_count: attempt - 1 })
        .where('id', '=', invoice.id)
        .execute();
    }
    if (earlier) {
      // This attempt was made before and has ended (its outcome settled above): count it, once (after
      // its backup charge, when the default card declined and that was not made yet).
      if (earlier.status !== 'failed') return { skip: 'payment_in_progress' as const };
      return { invoice, attempt, key, method: null, chargeId: earlier.id, ended: earlier };
    }
    const method = options.paymentMethodId
      ? await trx
          .selectFrom('payment_methods')
          .select(['id', 'provider_payment_method_id'])
          .where('id', '=', options.paymentMethodId)
          .where('organization_id', '=', invoice.organization_id)
          .executeTakeFirst()
      : await getDefaultPaymentMethod(trx, invoice.organization_id);
    if (!method) return { invoice, attempt, key, method: null, chargeId: null, ended: null };
    await insertPendingCharge(trx, {
      id: newId('ch'),
      organizationId: invoice.organization_id,
      invoiceId: invoice.id,
      purpose: 'invoice',
      amountCents: invoice.amount_due_cents,
      paymentMethodId: method.id,
      providerPaymentMethodId: method.provider_payment_method_id,
      idempotencyKey: key,
      createdBy: null,
      profileUpdate: null,
      at: options.at,
      attemptedAt: clock.now(),
    });
    const charge = await findChargeByKey(trx, key);
    return { invoice, attempt, key, method, chargeId: charge?.id ?? null, ended: null };
  });
  if ('skip' in prepared && prepared.skip) return { status: 'skipped', reason: prepared.skip };
  if (!('invoice' in prepared)) return { status: 'skipped', reason: 'not_open' };

  const { invoice, attempt, key, method, chargeId, ended } = prepared;
  let outcome: PaymentIntentState;
  if (ended) {
    outcome = {
      status: 'failed',
      providerRef: null,
      message: ended.failure_message ?? 'Payment failed.',
    };
  } else if (method && chargeId) {
    outcome = await gateway.charge({
      amountCents: invoice.amount_due_cents,
      providerPaymentMethodId: method.provider_payment_method_id,
      idempotencyKey: key,
      description: `Invoice ${invoice.number}`,
      offSession: options.trigger === 'automatic',
      metadata: { organization_id: invoice.organization_id, purpose: 'invoice' },
      recordIntent: (providerRef) => recordChargeIntent(db, chargeId, providerRef),
    });
  } else {
    outcome = { status: 'failed', providerRef: null, message: NO_DEFAULT_CARD };
  }

  const firstCardId = ended ? ended.payment_method_id : (method?.id ?? null);
  // A decline of the default card in the engine's attempt: the backup card is tried once (decision 016).
  const backup: BackupAttempt =
    options.trigger === 'automatic' && chargeId
      ? await chargeBackupCard(
          deps,
          invoice,
          {
            chargeId,
            key,
            paymentMethodId: firstCardId,
            outcome,
            ended: ended !== null,
          },
          options.at,
        )
      : { status: 'not_tried' };
  if (backup.status === 'in_flight') return { status: 'skipped', reason: 'payment_in_progress' };
  const tried = backup.status === 'tried' ? backup : null;

  const result = await db.transaction().execute(async (trx) => {
    const firstCharge =
      chargeId && !ended
        ? await settleChargeIn(trx, chargeId, outcome, options.at, clock.now())
        : null;
    const backupCharge =
      tried && !tried.ended
        ? await settleChargeIn(trx, tried.chargeId, tried.outcome, options.at, clock.now())
        : null;
    // What decides the attempt: the backup card's charge when it was made, else the default card's.
    const charge = tried ? backupCharge : firstCharge;
    const decisive = tried ? tried.outcome : outcome;
    const charges = [firstCharge, backupCharge].filter((row) => row !== null);
    if (charge?.status === 'succeeded') return { result: { status: 'paid' } as const, charges };
    if (decisive.status === 'requires_action') {
      return {
        result: { status: 'requires_action', clientSecret: decisive.clientSecret } as const,
        charges,
      };
    }
    if (decisive.status === 'processing')
      return { result: { status: 'processing' } as const, charges };
    const current = await lockInvoice(trx, invoiceId);
    if (!current || current.status !== 'open') {
      return { result: { status: 'skipped', reason: 'not_open' } as const, charges };
    }
    // The default card's answer leads; the backup card's, when it was tried too, follows it.
    const message = outcome.status === 'failed' ? outcome.message : 'Payment failed.';
    const backupMessage =
      tried?.outcome.status === 'failed' ? tried.outcome.message : tried ? 'Payment failed.' : null;
    if (options.trigger !== 'automatic') {
      await trx
        .updateTable('invoices')
        .set({ payment_attempted: true })
        .where('id', '=', invoiceId)
        .execute();
      return {
        result: {
          status: 'failed',
          message,
          nextAttemptAt: current.next_payment_attempt_at,
        } as const,
        charges,
      };
    }
    const retryDays = RETRY_DAYS[attempt - 1];
    const nextAttemptAt =
      retryDays === undefined
        ? null
        : new Date(current.finalized_at.getTime() + retryDays * DAY_MS);
    await trx
      .updateTable('invoices')
      .set({
        payment_attempted: true,
        attempt_count: attempt,
        next_payment_attempt_at: nextAttemptAt,
      })
      .where('id', '=', invoiceId)
      .execute();
    // Automatic collection failed: the recipients hear why and what happens next, once per attempt.
    await enqueueBillingEmail(trx, current.organization_id, `${invoiceId}:${attempt}`, {
      kind: 'payment.failed',
      invoiceId,
      invoiceNumber: current.number,
      amountCents: current.amount_due_cents,
      reason: message,
      card: await cardLabel(trx, firstCardId),
      ...(tried && backupMessage !== null
        ? { backup: { card: await cardLabel(trx, tried.paymentMethodId), reason: backupMessage } }
        : {}),
      nextAttemptAt: nextAttemptAt ? Math.floor(nextAttemptAt.getTime() / 1000) : null,
    });
    await enqueueWebhookEvent(
      trx,
      current.organization_id,
      'invoice.payment_failed',
      {
        object: 'invoice',
        invoice_id: invoiceId,
        number: current.number,
        status: current.status,
        amount_due_cents: current.amount_due_cents,
        currency: 'usd',
        attempt_count: attempt,
        failure_message: message,
        backup_card_failure_message: backupMessage,
        next_payment_attempt: nextAttemptAt ? Math.floor(nextAttemptAt.getTime() / 1000) : null,
      },
      `${invoiceId}:${attempt}`,
    );
    return { result: { status: 'failed', message, nextAttemptAt } as const, charges };
  });
  // Money taken for an invoice paid meanwhile goes back at once (after commit).
  for (const charge of result.charges) await refundOwed(deps, charge);
  return result.result;
}
