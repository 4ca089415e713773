import { randomUUID } from 'node:crypto';
import type { InvoicePaymentResponse } from '@meterline/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../plugins/errors.ts';
import {
  findChargeByKey,
  insertPendingCharge,
  openInvoiceCharges,
  type ChargeRow,
} from '../../repositories/charges.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import { newId } from '../billing/ids.ts';
import { chargeAndSettle, resumeCharge, type ChargeProgress } from './charge-progress.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { PAYMENT_METHOD_NOT_FOUND } from './payment-methods.ts';
import { settleCharge } from './settle-charge.ts';

export const INVOICE_NOT_FOUND = 'Invoice not found';
export const NOTHING_TO_PAY = 'This invoice has nothing left to pay';
export const PAYMENT_IN_PROGRESS = 'A payment of this invoice is already in progress';
export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used with a different payment method';
const SUPERSEDED = 'Replaced by a newer payment attempt.';
/** A pending charge younger than this is another request still talking to the provider. */
const IN_FLIGHT_MS = 10 * 60_000;

export interface PayInvoiceDeps {
  db: Db;
  gateway: PaymentGateway;
  clock: Clock;
}

/** The charge key of a Pay Now attempt: the same as the engine's collect-invoice uses for pay_now. */
export function invoicePaymentKey(invoiceId: string, clientKey: string): string {
  return `invoice:${invoiceId}:pay:${clientKey}`;
}

export interface PayInvoiceInput {
  organizationId: string;
  invoiceId: string;
  /** The client's Idempotency-Key; without one, the request is an attempt of its own. */
  idempotencyKey: string | undefined;
  /** The card typed on the hosted page, tokenized at the provider by the browser. */
  providerPaymentMethodId: string;
  userId: string;
}

/**
 * Pay Now on the hosted invoice page: charges the card typed there (tokenized at the provider by the
 * browser, never saved to the organization) for the amount due. Only a card the browser just tokenized or
 * one saved for this organization may pay: another organization's card is not found. A charge row keyed
 * by the request's Idempotency-Key is written before the provider call; success marks the invoice paid
 * and lifts an overdue restriction in the same transaction (see settle-charge). A retry or a double
 * submit with the key charges once, and after 3-D Secure it settles from the provider's record of the
 * intent; another attempt while one is in flight is refused; an abandoned 3-D Secure attempt is cancelled
 * before a new one.
 */
export async function payInvoice(
  deps: PayInvoiceDeps,
  input: PayInvoiceInput,
): Promise<InvoicePaymentResponse> {
  const { db, gateway, clock } = deps;
  const key = invoicePaymentKey(input.invoiceId, input.idempotencyKey ?? randomUUID());
  const existing = await findChargeByKey(db, key);
  if (existing) return resume(deps, existing, input);

  try {
    await checkPayable(db, input.organizationId, input.invoiceId);
  } catch (error) {
    // A twin of this request (same key) may have paid it a moment ago: answer what the twin got.
    const twin = await findChargeByKey(db, key);
    if (twin) return resume(deps, twin, input);
    throw error;
  }
  const { providerPaymentMethodId } = input;
  if (!(await gateway.mayCharge(input.organizationId, providerPaymentMethodId))) {
    throw new HttpError(404, PAYMENT_METHOD_NOT_FOUND);
  }
  await cancelAbandonedAttempts(deps, input.invoiceId, key);

  const claimed = await db.transaction().execute(async (trx) => {
    // Invoice lock first, then the key: a twin that got here first is found, not refused.
    await lockInvoice(trx, input.invoiceId);
    if (await findChargeByKey(trx, key)) return null;
    const invoice = await checkPayable(trx, input.organizationId, input.invoiceId);
    const others = await openInvoiceCharges(trx, invoice.id, key);
    const inFlight = others.some(
      (charge) =>
        charge.status === 'pending' &&
        clock.now().getTime() - charge.updated_at.getTime() < IN_FLIGHT_MS,
    );
    const charge = await insertPendingCharge(trx, {
      id: newId('ch'),
      organizationId: invoice.organization_id,
      invoiceId: invoice.id,
      purpose: 'invoice',
      amountCents: invoice.amount_due_cents,
      paymentMethodId: null,
      providerPaymentMethodId,
      idempotencyKey: key,
      createdBy: input.userId,
      profileUpdate: null,
      at: clock.now(),
    });
    if (charge && inFlight) throw new HttpError(409, PAYMENT_IN_PROGRESS);
    return charge ?? null;
  });
  if (!claimed) {
    const twin = await findChargeByKey(db, key);
    if (!twin) throw new Error(`Invoice payment ${key} vanished`);
    return resume(deps, twin, input);
  }
  return toResponse(await chargeAndSettle(deps, claimed));
}

async function checkPayable(db: Db, organizationId: string, invoiceId: string) {
  const invoice = await lockInvoice(db, invoiceId);
  if (!invoice || invoice.organization_id !== organizationId) {
    throw new HttpError(404, INVOICE_NOT_FOUND);
  }
  const payable = invoice.status === 'open' || invoice.status === 'uncollectible';
  if (!payable || invoice.amount_due_cents <= 0) throw new HttpError(409, NOTHING_TO_PAY);
  return invoice;
}

/**
 * An earlier attempt left waiting for 3-D Secure could still be completed later and pay the invoice a
 * second time: it is cancelled at the provider first (or, if it succeeded meanwhile, settled).
 */
async function cancelAbandonedAttempts(deps: PayInvoiceDeps, invoiceId: string, key: string) {
  const waiting = (await openInvoiceCharges(deps.db, invoiceId, key)).filter(
    (charge) => charge.status === 'requires_action' && charge.provider_ref,
  );
  for (const charge of waiting) {
    const state = await deps.gateway.cancelPaymentIntent(charge.provider_ref ?? '');
    await settleCharge(
      deps.db,
      charge.id,
      state.status === 'failed' ? { ...state, message: SUPERSEDED } : state,
      deps.clock.now(),
    );
  }
}

/** The same key again (a double submit, a retry, the page back from 3-D Secure): the first attempt's state. */
async function resume(
  deps: PayInvoiceDeps,
  charge: ChargeRow,
  input: PayInvoiceInput,
): Promise<InvoicePaymentResponse> {
  if (charge.organization_id !== input.organizationId) throw new HttpError(404, INVOICE_NOT_FOUND);
  if (charge.provider_payment_method_id !== input.providerPaymentMethodId) {
    throw new HttpError(409, IDEMPOTENCY_KEY_REUSED);
  }
  return toResponse(await resumeCharge(deps, charge));
}

function toResponse(progress: ChargeProgress): InvoicePaymentResponse {
  return progress.status === 'requires_action'
    ? { status: 'requires_action', payment_intent_secret: progress.clientSecret }
    : { status: progress.status, payment_intent_secret: null };
}
