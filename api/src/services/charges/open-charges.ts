import type { ChargeRow } from '../../repositories/charges.ts';
import { openInvoiceCharges } from '../../repositories/charges.ts';
import type { PaymentDeps } from './payment-deps.ts';
import { settleCharge } from './settle-charge.ts';

/**
 * How long the process that calls the provider for a charge holds it as its own: longer than one
 * provider call with its retries (the card provider's client gives up after three tries of 20 s). Only
 * the caller writes `attempted_at`, with the wall clock, just before it calls.
 */
export const IN_FLIGHT_LEASE_MS = 5 * 60_000;

export const NEVER_REACHED_PROVIDER = 'The payment did not reach the payment provider.';
export const ABANDONED_CHALLENGE = 'The card holder did not complete authentication in time.';

export type ChargeStanding = { status: 'settled'; charge: ChargeRow } | { status: 'in_flight' };

export interface RefreshOptions {
  /**
   * Cancel a payment still waiting for 3-D Secure (its challenge abandoned): a new attempt by the
   * customer supersedes it, forgiving the invoice ends it. Without it, only an expired one is cancelled.
   */
  cancelWaiting?: { message: string };
}

/**
 * Where an open charge (pending or waiting for 3-D Secure) really stands, asked of the provider: by its
 * intent when we know it, else by the charge key every provider call carries (a response lost on the
 * way back leaves no intent id here). Whatever the provider says is settled through the state machine.
 * "Still in flight" is decided only by the provider's record, or, when it has none yet, by the lease the
 * calling process wrote itself; a charge the provider never heard of after its lease is failed, and if
 * that call reaches the provider after all, the success settles it (and refunds it when the invoice was
 * paid meanwhile).
 */
export async function refreshCharge(
  deps: PaymentDeps,
  charge: ChargeRow,
  options: RefreshOptions = {},
): Promise<ChargeStanding> {
  const now = deps.clock.now();
  const leased =
    charge.status === 'pending' &&
    charge.attempted_at !== null &&
    now.getTime() - charge.attempted_at.getTime() < IN_FLIGHT_LEASE_MS;
  // Without an intent id the caller is between the provider's two steps, or died there: while its
  // lease runs it is left alone (asking by key would cancel the intent it is about to confirm).
  if (!charge.provider_ref && leased) return { status: 'in_flight' };
  const state = charge.provider_ref
    ? await deps.gateway.retrievePaymentIntent(charge.provider_ref)
    : await deps.gateway.findPaymentIntentByKey(charge.idempotency_key);
  if (!state) {
    const failed = await settleCharge(
      deps,
      charge.id,
      { status: 'failed', providerRef: null, message: NEVER_REACHED_PROVIDER },
      now,
    );
    return { status: 'settled', charge: failed };
  }
  if (state.status === 'processing') {
    await settleCharge(deps, charge.id, state, now);
    return { status: 'in_flight' };
  }
  if (state.status !== 'requires_action') {
    return { status: 'settled', charge: await settleCharge(deps, charge.id, state, now) };
  }
  const waiting = await settleCharge(deps, charge.id, state, now);
  if (waiting.status !== 'requires_action') return { status: 'settled', charge: waiting };
  const expired = waiting.action_expires_at !== null && waiting.action_expires_at <= now;
  const message = options.cancelWaiting?.message ?? (expired ? ABANDONED_CHALLENGE : null);
  if (message === null) return { status: 'in_flight' };
  const cancelled = await deps.gateway.cancelPaymentIntent(state.providerRef);
  const outcome = cancelled.status === 'failed' ? { ...cancelled, message } : cancelled;
  const settled = await settleCharge(deps, charge.id, outcome, now);
  return settled.status === 'succeeded' || settled.status === 'failed'
    ? { status: 'settled', charge: settled }
    : { status: 'in_flight' };
}

/**
 * Brings every other open charge of an invoice to where the provider says it is, before a new payment
 * of it may start: answers whether one is still in flight (then no new payment may start).
 */
export async function settleOpenInvoiceCharges(
  deps: PaymentDeps,
  invoiceId: string,
  exceptKey: string,
  options: RefreshOptions = {},
): Promise<'clear' | 'in_flight'> {
  let inFlight = false;
  for (const charge of await openInvoiceCharges(deps.db, invoiceId, exceptKey)) {
    const standing = await refreshCharge(deps, charge, options);
    if (standing.status === 'in_flight') inFlight = true;
  }
  return inFlight ? 'in_flight' : 'clear';
}
