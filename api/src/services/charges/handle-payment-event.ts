import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { findChargeForIntent, type ChargeRow } from '../../repositories/charges.ts';
import type { PaymentEvent } from '../../adapters/payment-event.ts';
import type { PaymentGateway, SetupIntentState } from '../../adapters/payment-gateway.ts';
import { recordSetupCardIn } from '../payment-methods/payment-methods.ts';
import { refundOwed } from './refund-charge.ts';
import { failSetup, updateCardFromProvider } from '../payment-methods/provider-card-events.ts';
import { recordDispute } from './provider-dispute.ts';
import { recordProviderRefund } from './provider-refund.ts';
import { settleChargeIn } from './settle-charge.ts';

export interface PaymentEventDeps {
  db: Db;
  gateway: PaymentGateway;
  clock: Clock;
}

export type EventResult = 'applied' | 'duplicate' | 'unknown';

/**
 * The one handler of provider events, fed by the simulator and by the provider's signed webhooks. It is
 * idempotent twice over: an event id is applied once (recorded in the same transaction as its effect),
 * and its effect is a state transition of a charge, a card setup, a refund total, a dispute or a saved
 * card that happens once whatever the order (an older event arriving late changes nothing). An event
 * about an object we do not know is recorded by its id and answers 'unknown', never an error.
 */
export async function handlePaymentEvent(
  deps: PaymentEventDeps,
  event: PaymentEvent,
): Promise<EventResult> {
  const { db, gateway, clock } = deps;
  if (await alreadyApplied(db, event.id)) return 'duplicate';
  // A card's details come from the provider, asked before the transaction (never inside one).
  let setup: SetupIntentState | null = null;
  if (event.type === 'setup_intent.succeeded') {
    setup = await gateway.retrieveSetupIntent(event.providerSetupIntentId);
  }
  const at = clock.now();
  let settled: ChargeRow | null = null;
  const result = await db.transaction().execute(async (trx): Promise<EventResult> => {
    const recorded = await trx
      .insertInto('payment_events')
      .values({ id: event.id, provider: gateway.provider, type: event.type, received_at: at })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!recorded) return 'duplicate';

    switch (event.type) {
      case 'setup_intent.succeeded': {
        if (!setup) return 'unknown';
        const card = await recordSetupCardIn(trx, gateway.provider, setup, at);
        return card ? 'applied' : 'unknown';
      }
      case 'setup_intent.setup_failed':
        return failSetup(trx, gateway.provider, event, at);
      case 'payment_method.updated':
        return updateCardFromProvider(trx, gateway.provider, event, at);
      case 'charge.refunded':
        return recordProviderRefund(trx, event, at);
      case 'charge.dispute.created':
      case 'charge.dispute.updated':
      case 'charge.dispute.closed':
        return recordDispute(trx, gateway.provider, event, at);
    }
    // Found without a lock: settling takes the invoice's lock, then the charge's, as every settler does.
    const charge = await findChargeForIntent(trx, event.providerRef, event.chargeKey);
    if (!charge) return 'unknown';
    settled = await settleChargeIn(
      trx,
      charge.id,
      event.type === 'payment_intent.succeeded'
        ? { status: 'succeeded', providerRef: event.providerRef }
        : { status: 'failed', providerRef: event.providerRef, message: event.message },
      at,
    );
    return 'applied';
  });
  // A success for an invoice that no longer needed paying is refunded once committed.
  if (settled) await refundOwed(deps, settled);
  return result;
}

async function alreadyApplied(db: Db, eventId: string): Promise<boolean> {
  const row = await db
    .selectFrom('payment_events')
    .select('id')
    .where('id', '=', eventId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Delivers a simulator call's events, in order, as the provider delivers its webhooks. A failure reaches
 * the caller; a retried top-up or invoice payment, and attach, reconcile from the provider's state.
 */
export async function deliverEvents(
  deps: PaymentEventDeps,
  events: readonly PaymentEvent[],
): Promise<void> {
  for (const event of events) await handlePaymentEvent(deps, event);
}
