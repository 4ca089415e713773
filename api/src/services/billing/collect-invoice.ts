import type { Db } from '../../db/database.ts';
import {
  findChargeByKey,
  insertPendingCharge,
  openInvoiceCharges,
} from '../../repositories/charges.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import { getDefaultPaymentMethod } from '../../repositories/payment-methods.ts';
import type { PaymentGateway, PaymentIntentState } from '../payments/payment-gateway.ts';
import { settleChargeIn } from '../payments/settle-charge.ts';
import { newId } from './ids.ts';

/** Automatic retries after a failed charge: days after finalization. */
export const RETRY_DAYS = [3, 5, 7] as const;
const DAY_MS = 86_400_000;

export type CollectResult =
  | { status: 'paid' }
  | { status: 'failed'; message: string; nextAttemptAt: Date | null }
  | { status: 'requires_action'; clientSecret: string }
  | { status: 'skipped'; reason: 'not_open' | 'not_due' | 'payment_in_progress' };

export interface CollectOptions {
  at: Date;
  /** automatic: the billing job, off session, with the default card; pay_now: the customer, on session. */
  trigger: 'automatic' | 'pay_now';
  /** pay_now only: the saved card the customer chose (defaults to the default card). */
  paymentMethodId?: string;
  /** pay_now only: the client's idempotency key. */
  idempotencyKey?: string;
}

/**
 * Tries to collect an open invoice with a saved card. A charge row is written before the provider is
 * called, under a key that names the attempt, so a crash between the two repeats the same provider call,
 * which the provider answers from its record instead of charging again. The outcome goes through the
 * charge's guarded state machine (settle-charge): the invoice is marked paid only in the transaction that
 * moves the charge into `succeeded`. An attempt never starts while another payment of the invoice (a Pay
 * Now waiting for its challenge) is in flight.
 */
export async function collectInvoice(
  db: Db,
  gateway: PaymentGateway,
  invoiceId: string,
  options: CollectOptions,
): Promise<CollectResult> {
  const prepared = await db.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, invoiceId);
    if (!invoice || invoice.status !== 'open') return { skip: 'not_open' as const };
    if (
      options.trigger === 'automatic' &&
      (!invoice.next_payment_attempt_at || invoice.next_payment_attempt_at > options.at)
    ) {
      return { skip: 'not_due' as const };
    }
    const attempt = invoice.attempt_count + 1;
    const key =
      options.trigger === 'automatic'
        ? `invoice:${invoice.id}:attempt:${attempt}`
        : `invoice:${invoice.id}:pay:${options.idempotencyKey ?? newId('ch')}`;
    if ((await openInvoiceCharges(trx, invoice.id, key)).length > 0) {
      return { skip: 'payment_in_progress' as const };
    }
    const method = options.paymentMethodId
      ? await trx
          .selectFrom('payment_methods')
          .select(['id', 'provider_payment_method_id'])
          .where('id', '=', options.paymentMethodId)
          .where('organization_id', '=', invoice.organization_id)
          .executeTakeFirst()
      : await getDefaultPaymentMethod(trx, invoice.organization_id);
    if (!method) return { invoice, attempt, key, method: null, chargeId: null };
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
    });
    const charge = await findChargeByKey(trx, key);
    return { invoice, attempt, key, method, chargeId: charge?.id ?? null };
  });
  if ('skip' in prepared && prepared.skip) return { status: 'skipped', reason: prepared.skip };
  if (!('invoice' in prepared)) return { status: 'skipped', reason: 'not_open' };

  const { invoice, attempt, key, method, chargeId } = prepared;
  const outcome: PaymentIntentState = method
    ? await gateway.charge({
        amountCents: invoice.amount_due_cents,
        providerPaymentMethodId: method.provider_payment_method_id,
        idempotencyKey: key,
        description: `Invoice ${invoice.number}`,
        offSession: options.trigger === 'automatic',
      })
    : {
        status: 'failed',
        providerRef: null,
        message: 'There is no default payment method to charge.',
      };

  return db.transaction().execute(async (trx): Promise<CollectResult> => {
    const charge = chargeId ? await settleChargeIn(trx, chargeId, outcome, options.at) : null;
    if (charge?.status === 'succeeded') return { status: 'paid' };
    if (outcome.status === 'requires_action') {
      return { status: 'requires_action', clientSecret: outcome.clientSecret };
    }
    const current = await lockInvoice(trx, invoiceId);
    if (!current || current.status !== 'open') return { status: 'skipped', reason: 'not_open' };
    const message =
      outcome.status === 'failed' ? outcome.message : 'The payment is still processing.';
    if (options.trigger !== 'automatic') {
      await trx
        .updateTable('invoices')
        .set({ payment_attempted: true })
        .where('id', '=', invoiceId)
        .execute();
      return { status: 'failed', message, nextAttemptAt: current.next_payment_attempt_at };
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
    return { status: 'failed', message, nextAttemptAt };
  });
}
