import { randomUUID } from 'node:crypto';
import {
  PAY_LINK_ATTEMPTS_PER_HOUR,
  PAY_LINK_TOO_MANY_ATTEMPTS,
  type InvoicePaymentResponse,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import {
  findChargeByKey,
  insertPendingCharge,
  openInvoiceCharges,
  type ChargeRow,
} from '../../repositories/charges.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import { findPaymentMethod } from '../../repositories/payment-methods.ts';
import type { AuditContext } from '../../repositories/record-audit.ts';
import { newId } from '../../lib/ids.ts';
import { chargeAndSettle, resumeCharge, type ChargeProgress } from '../charges/charge-progress.ts';
import { settleOpenInvoiceCharges } from '../charges/open-charges.ts';
import type { PaymentDeps } from '../charges/payment-deps.ts';
import { PAYMENT_METHOD_NOT_FOUND } from '../payment-methods/payment-methods.ts';

export const INVOICE_NOT_FOUND = 'Invoice not found';
export const NOTHING_TO_PAY = 'This invoice has nothing left to pay';
export const PAYMENT_IN_PROGRESS = 'A payment of this invoice is already in progress';
export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used with a different payment method';
export const SUPERSEDED = 'Replaced by a newer payment attempt.';

export type PayInvoiceDeps = PaymentDeps;

/** The charge key of a Pay Now attempt: the same as the engine's collect-invoice uses for pay_now. */
export function invoicePaymentKey(invoiceId: string, clientKey: string): string {
  return `invoice:${invoiceId}:pay:${clientKey}`;
}

/** The charge key of a payment through the invoice's signed link, by whoever holds it. */
export function payLinkPaymentKey(invoiceId: string, clientKey: string): string {
  return `invoice:${invoiceId}:link:${clientKey}`;
}

export interface PayInvoiceInput {
  organizationId: string;
  invoiceId: string;
  /** The client's Idempotency-Key; without one, the request is an attempt of its own. */
  idempotencyKey: string | undefined;
  /**
   * The body's payment_method_id: the card typed on the hosted page, tokenized at the provider by the
   * browser, or the id of one of the organization's saved cards (as GET /payments lists it).
   */
  paymentMethodId: string;
  /** The member paying; null for the holder of the invoice's signed link, who may use a new card only. */
  userId: string | null;
  /** Who pays, from where: the payment's outcome is logged in this name, whenever it settles. */
  audit: AuditContext;
}

/**
 * Pay Now on the hosted invoice page: charges the card typed there (tokenized at the provider by the
 * browser, never saved to the organization), or one of the organization's saved cards chosen there, for
 * the amount due. Only a card the browser just tokenized or one saved for this organization may pay:
 * another organization's card is not found. The route lets only a member with billing write on the
 * invoice's organization pay, whichever card. A charge row keyed
 * by the request's Idempotency-Key is written before the provider call; success marks the invoice paid
 * and lifts an overdue restriction in the same transaction (see settle-charge). A retry or a double
 * submit with the key charges once, and after 3-D Secure it settles from the provider's record of the
 * intent. Other payments of the invoice are first brought to where the provider says they are: one still
 * in flight refuses the new attempt (409), one waiting for an abandoned challenge is cancelled.
 */
export async function payInvoice(
  deps: PayInvoiceDeps,
  input: PayInvoiceInput,
): Promise<InvoicePaymentResponse> {
  const { db, gateway, clock } = deps;
  const byLink = input.userId === null;
  const clientKey = input.idempotencyKey ?? randomUUID();
  const key = byLink
    ? payLinkPaymentKey(input.invoiceId, clientKey)
    : invoicePaymentKey(input.invoiceId, clientKey);
  const card = await cardOf(db, input);
  const existing = await findChargeByKey(db, key);
  if (existing) return resume(deps, existing, input, card);

  try {
    await checkPayable(db, input.organizationId, input.invoiceId);
  } catch (error) {
    // A twin of this request (same key) may have paid it a moment ago: answer what the twin got.
    const twin = await findChargeByKey(db, key);
    if (twin) return resume(deps, twin, input, card);
    throw error;
  }
  const { providerPaymentMethodId } = card;
  // A saved card is the organization's by the lookup above; the provider is asked all the same.
  if (!(await gateway.mayCharge(input.organizationId, providerPaymentMethodId))) {
    throw new Failure('not_found', PAYMENT_METHOD_NOT_FOUND);
  }
  // Another payment of this invoice (the engine's, an earlier attempt) is asked of the provider, never
  // guessed from its age: settled if it ended, cancelled if it waits for an abandoned challenge.
  const standing = await settleOpenInvoiceCharges(deps, input.invoiceId, key, {
    cancelWaiting: { message: SUPERSEDED },
  });
  if (standing === 'in_flight') {
    const twin = await findChargeByKey(db, key);
    if (twin) return resume(deps, twin, input, card);
    throw new Failure('conflict', PAYMENT_IN_PROGRESS);
  }

  const claimed = await db.transaction().execute(async (trx) => {
    // Invoice lock first, then the key: a twin that got here first is found, not refused.
    await lockInvoice(trx, input.invoiceId);
    if (await findChargeByKey(trx, key)) return null;
    const invoice = await checkPayable(trx, input.organizationId, input.invoiceId);
    // One that started since (we hold the invoice lock now) is in flight by definition.
    if ((await openInvoiceCharges(trx, invoice.id, key)).length > 0) {
      throw new Failure('conflict', PAYMENT_IN_PROGRESS);
    }
    // Counted under the invoice's lock: attempts sent at once cannot pass the count together.
    if (
      byLink &&
      (await recentLinkAttempts(trx, invoice.id, clock.now())) >= PAY_LINK_ATTEMPTS_PER_HOUR
    ) {
      throw new Failure('too_many_attempts', PAY_LINK_TOO_MANY_ATTEMPTS);
    }
    const now = clock.now();
    const charge = await insertPendingCharge(trx, {
      id: newId('ch'),
      organizationId: invoice.organization_id,
      invoiceId: invoice.id,
      purpose: 'invoice',
      amountCents: invoice.amount_due_cents,
      paymentMethodId: card.savedId,
      providerPaymentMethodId,
      idempotencyKey: key,
      createdBy: input.userId,
      audit: input.audit,
      profileUpdate: null,
      at: now,
      attemptedAt: now,
    });
    return charge ?? null;
  });
  if (!claimed) {
    const twin = await findChargeByKey(db, key);
    if (!twin) throw new Error(`Invoice payment ${key} vanished`);
    return resume(deps, twin, input, card);
  }
  return toResponse(await chargeAndSettle(deps, claimed));
}

interface PayingCard {
  /** The organization's saved card, when payment_method_id named one; null for a typed card. */
  savedId: string | null;
  providerPaymentMethodId: string;
}

/**
 * The card to charge: one of this organization's saved cards by its id (another organization's id is
 * not found here, and is then only a provider id the provider does not let this organization charge),
 * else the provider's payment method the browser tokenized.
 */
async function cardOf(db: Db, input: PayInvoiceInput): Promise<PayingCard> {
  if (input.userId === null) {
    // The link pays with a card typed on the page: a saved card, by either id, is not found.
    const saved = await db
      .selectFrom('payment_methods')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('id', '=', input.paymentMethodId),
          eb('provider_payment_method_id', '=', input.paymentMethodId),
        ]),
      )
      .executeTakeFirst();
    if (saved) throw new Failure('not_found', PAYMENT_METHOD_NOT_FOUND);
    return { savedId: null, providerPaymentMethodId: input.paymentMethodId };
  }
  const saved = await findPaymentMethod(db, input.organizationId, input.paymentMethodId);
  return saved
    ? { savedId: saved.id, providerPaymentMethodId: saved.provider_payment_method_id }
    : { savedId: null, providerPaymentMethodId: input.paymentMethodId };
}

/** Payments started through an invoice's link in the last hour, whatever became of them. */
async function recentLinkAttempts(db: Db, invoiceId: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom('charges')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('invoice_id', '=', invoiceId)
    .where('idempotency_key', 'like', `invoice:${invoiceId}:link:%`)
    .where('created_at', '>', new Date(now.getTime() - 3_600_000))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function checkPayable(db: Db, organizationId: string, invoiceId: string) {
  const invoice = await lockInvoice(db, invoiceId);
  if (!invoice || invoice.organization_id !== organizationId) {
    throw new Failure('not_found', INVOICE_NOT_FOUND);
  }
  const payable = invoice.status === 'open' || invoice.status === 'uncollectible';
  if (!payable || invoice.amount_due_cents <= 0) throw new Failure('conflict', NOTHING_TO_PAY);
  return invoice;
}

/** The same key again (a double submit, a retry, the page back from 3-D Secure): the first attempt's state. */
async function resume(
  deps: PayInvoiceDeps,
  charge: ChargeRow,
  input: PayInvoiceInput,
  card: PayingCard,
): Promise<InvoicePaymentResponse> {
  if (charge.organization_id !== input.organizationId)
    throw new Failure('not_found', INVOICE_NOT_FOUND);
  // The same card: by its provider id, or by the saved card's id (removed since the first attempt).
  const sameCard =
    charge.provider_payment_method_id === card.providerPaymentMethodId ||
    (charge.payment_method_id !== null && charge.payment_method_id === input.paymentMethodId);
  if (!sameCard) {
    throw new Failure('conflict', IDEMPOTENCY_KEY_REUSED);
  }
  return toResponse(await resumeCharge(deps, charge));
}

function toResponse(progress: ChargeProgress): InvoicePaymentResponse {
  return progress.status === 'requires_action'
    ? { status: 'requires_action', payment_intent_secret: progress.clientSecret }
    : { status: progress.status, payment_intent_secret: null };
}
