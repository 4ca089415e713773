import type { Db } from '../../db/database.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import { getDefaultPaymentMethod } from '../../repositories/payment-methods.ts';
import type { ChargeOutcome, PaymentGateway } from '../payments/payment-gateway.ts';
import { newId } from './ids.ts';
import { liftOverdueRestriction } from './restrictions.ts';

/** Automatic retries after a failed charge: days after finalization. */
export const RETRY_DAYS = [3, 5, 7] as const;
const DAY_MS = 86_400_000;

export type CollectResult =
  | { status: 'paid' }
  | { status: 'failed'; message: string; nextAttemptAt: Date | null }
  | { status: 'requires_action'; clientSecret: string }
  | { status: 'skipped'; reason: 'not_open' | 'not_due' };

export interface CollectOptions {
  at: Date;
  /** automatic: the billing job, off session, with the default card; pay_now: the customer, on session. */
  trigger: 'automatic' | 'pay_now';
  /** pay_now only: the card the customer chose (defaults to the default card). */
  paymentMethodId?: string;
  /** pay_now only: the client's idempotency key. */
  idempotencyKey?: string;
}

/**
 * Tries to collect an open invoice. A charge row is written before the provider is called, under a key that
 * names the attempt, so a crash between the two repeats the same provider call, which the provider answers
 * from its record instead of charging again.
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
    const method = options.paymentMethodId
      ? await trx
          .selectFrom('payment_methods')
          .select(['id', 'provider_payment_method_id'])
          .where('id', '=', options.paymentMethodId)
          .where('organization_id', '=', invoice.organization_id)
          .executeTakeFirst()
      : await getDefaultPaymentMethod(trx, invoice.organization_id);
    const key =
      options.trigger === 'automatic'
        ? `invoice:${invoice.id}:attempt:${attempt}`
        : `invoice:${invoice.id}:pay:${options.idempotencyKey ?? newId('ch')}`;
    if (!method) return { invoice, attempt, key, method: null, charge: null };
    await trx
      .insertInto('charges')
      .values({
        id: newId('ch'),
        organization_id: invoice.organization_id,
        invoice_id: invoice.id,
        purpose: 'invoice',
        amount_cents: invoice.amount_due_cents,
        payment_method_id: method.id,
        idempotency_key: key,
        status: 'pending',
        updated_at: options.at,
      })
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .execute();
    return { invoice, attempt, key, method, charge: key };
  });
  if ('skip' in prepared && prepared.skip) return { status: 'skipped', reason: prepared.skip };
  if (!('invoice' in prepared)) return { status: 'skipped', reason: 'not_open' };

  const { invoice, attempt, key, method } = prepared;
  const outcome: ChargeOutcome = method
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
    const current = await lockInvoice(trx, invoiceId);
    if (method) {
      await trx
        .updateTable('charges')
        .set({
          status: outcome.status,
          provider_ref: outcome.providerRef,
          failure_message: outcome.status === 'failed' ? outcome.message : null,
          updated_at: options.at,
        })
        .where('idempotency_key', '=', key)
        .execute();
    }
    if (!current || current.status !== 'open') {
      return { status: 'skipped', reason: 'not_open' };
    }
    if (outcome.status === 'succeeded') {
      await trx
        .updateTable('invoices')
        .set({
          status: 'paid',
          amount_paid_cents: current.amount_due_cents,
          paid_at: options.at,
          payment_attempted: true,
          attempt_count: attempt,
          next_payment_attempt_at: null,
        })
        .where('id', '=', invoiceId)
        .execute();
      await liftOverdueRestriction(trx, current.organization_id, options.at);
      return { status: 'paid' };
    }
    if (outcome.status === 'requires_action') {
      return { status: 'requires_action', clientSecret: outcome.clientSecret };
    }
    const retryDays = options.trigger === 'automatic' ? RETRY_DAYS[attempt - 1] : undefined;
    const nextAttemptAt =
      options.trigger === 'automatic'
        ? retryDays === undefined
          ? null
          : new Date(current.finalized_at.getTime() + retryDays * DAY_MS)
        : current.next_payment_attempt_at;
    await trx
      .updateTable('invoices')
      .set({
        payment_attempted: true,
        attempt_count: options.trigger === 'automatic' ? attempt : current.attempt_count,
        next_payment_attempt_at: nextAttemptAt,
      })
      .where('id', '=', invoiceId)
      .execute();
    return { status: 'failed', message: outcome.message, nextAttemptAt };
  });
}
