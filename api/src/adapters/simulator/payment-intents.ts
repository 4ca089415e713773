import type { SimulatorPaymentResponse } from '@meterline/domain';
import { type ChargeRequest, type PaymentIntentState } from '../payment-gateway.ts';
import { DECLINE_MESSAGES, type CardBehaviour } from './cards.ts';
import {
  AUTHENTICATION_REQUIRED,
  DETACHED_PAYMENT_METHOD,
  NO_SUCH_PAYMENT_METHOD,
  PAYMENT_CANCELED,
  SimulatorRequestError,
  id,
  ok,
  secretFor,
  type SimulatorContext,
  type SimulatorResult,
} from './shared.ts';
import { cancelChallenges, pendingChallenge } from './challenges.ts';

type IntentRow = {
  id: string;
  status: string;
  failure_message: string | null;
  client_secret: string;
  idempotency_key: string | null;
};

/** An intent created but not yet confirmed: no money can have moved. */
export const UNCONFIRMED = 'requires_confirmation';

function chargeOutcomeOf(intent: IntentRow): PaymentIntentState {
  if (intent.status === 'succeeded') return { status: 'succeeded', providerRef: intent.id };
  if (intent.status === UNCONFIRMED) return { status: 'processing', providerRef: intent.id };
  if (intent.status === 'requires_action') {
    return {
      status: 'requires_action',
      providerRef: intent.id,
      clientSecret: intent.client_secret,
    };
  }
  return {
    status: 'failed',
    providerRef: intent.id,
    message: intent.failure_message ?? 'Payment failed.',
  };
}

export async function charge(
  ctx: SimulatorContext,
  request: ChargeRequest,
): Promise<PaymentIntentState> {
  // The same key again answers from the record; one created but left unconfirmed is confirmed now.
  const existing = await findIntentByKey(ctx, request.idempotencyKey);
  if (existing && existing.status !== UNCONFIRMED) return chargeOutcomeOf(existing);

  const card = await ctx.db
    .selectFrom('simulator_payment_methods')
    .selectAll()
    .where('id', '=', request.providerPaymentMethodId)
    .executeTakeFirst();
  if (!card) {
    return { status: 'failed', providerRef: null, message: NO_SUCH_PAYMENT_METHOD };
  }
  if (card.detached_at) {
    return { status: 'failed', providerRef: null, message: DETACHED_PAYMENT_METHOD };
  }
  // Another organization's saved card is not this payer's to use, whoever learnt its id.
  if (request.organizationId && card.customer && card.customer !== request.organizationId) {
    return { status: 'failed', providerRef: null, message: NO_SUCH_PAYMENT_METHOD };
  }
  const behaviour = await chargeBehaviourOf(ctx, card);
  let status: string;
  let failure: string | null = null;
  if (behaviour === 'succeed') status = 'succeeded';
  else if (behaviour === 'authenticate' || behaviour === 'authenticate_always') {
    status = request.offSession ? 'failed' : 'requires_action';
    failure = request.offSession ? AUTHENTICATION_REQUIRED : null;
  } else {
    status = 'failed';
    failure = DECLINE_MESSAGES[behaviour];
  }
  const intentId = id('pi');
  const intent = {
    id: intentId,
    idempotency_key: request.idempotencyKey,
    amount_cents: request.amountCents,
    payment_method_id: card.id,
    status: UNCONFIRMED,
    failure_message: null,
    client_secret: secretFor(intentId),
  };
  // Created first, confirmed only once the caller has recorded it, as the provider's two steps. A
  // concurrent twin with the same key loses the insert and goes on with the winner's intent.
  await ctx.db
    .insertInto('simulator_payment_intents')
    .values(intent)
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .execute();
  const created = await findIntentByKey(ctx, request.idempotencyKey);
  if (!created) throw new Error('The simulator lost a payment intent');
  if (created.status !== UNCONFIRMED) return chargeOutcomeOf(created);
  await request.recordIntent?.(created.id);
  const confirmed = await ctx.db
    .updateTable('simulator_payment_intents')
    .set({ status, failure_message: failure, updated_at: ctx.now() })
    .where('id', '=', created.id)
    .where('status', '=', UNCONFIRMED)
    .returningAll()
    .executeTakeFirst();
  return chargeOutcomeOf(
    confirmed ?? (await findIntentByKey(ctx, request.idempotencyKey)) ?? created,
  );
}

export function findIntentByKey(ctx: SimulatorContext, key: string) {
  return ctx.db
    .selectFrom('simulator_payment_intents')
    .selectAll()
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function findPaymentIntentByKey(
  ctx: SimulatorContext,
  idempotencyKey: string,
): Promise<PaymentIntentState | null> {
  // One never confirmed is cancelled, so that it can take no money later.
  await ctx.db
    .updateTable('simulator_payment_intents')
    .set({ status: 'canceled', failure_message: PAYMENT_CANCELED, updated_at: ctx.now() })
    .where('idempotency_key', '=', idempotencyKey)
    .where('status', '=', UNCONFIRMED)
    .execute();
  const intent = await findIntentByKey(ctx, idempotencyKey);
  return intent && intent.status !== 'canceled' ? chargeOutcomeOf(intent) : null;
}

export async function retrievePaymentIntent(
  ctx: SimulatorContext,
  providerRef: string,
): Promise<PaymentIntentState> {
  const intent = await ctx.db
    .selectFrom('simulator_payment_intents')
    .selectAll()
    .where('id', '=', providerRef)
    .executeTakeFirst();
  if (!intent) throw new SimulatorRequestError(404, 'No such payment intent.');
  return chargeOutcomeOf(intent);
}

export async function cancelPaymentIntent(
  ctx: SimulatorContext,
  providerRef: string,
): Promise<PaymentIntentState> {
  return ctx.db.transaction().execute(async (trx) => {
    const intent = await trx
      .selectFrom('simulator_payment_intents')
      .selectAll()
      .where('id', '=', providerRef)
      .forUpdate()
      .executeTakeFirst();
    if (!intent) throw new SimulatorRequestError(404, 'No such payment intent.');
    if (intent.status !== 'requires_action') return chargeOutcomeOf(intent);
    await trx
      .updateTable('simulator_payment_intents')
      .set({ status: 'canceled', failure_message: PAYMENT_CANCELED, updated_at: ctx.now() })
      .where('id', '=', providerRef)
      .execute();
    await cancelChallenges(trx, 'payment', providerRef);
    return { status: 'failed', providerRef, message: PAYMENT_CANCELED };
  });
}

/** The browser confirms an on-session payment intent with its client secret (3-D Secure, if asked). */
export async function confirmPaymentIntent(
  ctx: SimulatorContext,
  clientSecret: string,
): Promise<SimulatorResult<SimulatorPaymentResponse>> {
  return ctx.db.transaction().execute(async (trx) => {
    const intent = await trx
      .selectFrom('simulator_payment_intents')
      .selectAll()
      .where('client_secret', '=', clientSecret)
      .forUpdate()
      .executeTakeFirst();
    if (!intent) throw new SimulatorRequestError(404, 'No such payment intent.');
    if (intent.status === 'succeeded') return ok({ status: 'succeeded' });
    if (intent.status === 'requires_action') {
      const challenge = await pendingChallenge(trx, 'payment', intent.id);
      return ok({ status: 'requires_action', challenge });
    }
    return {
      ok: false,
      message: intent.failure_message ?? 'Payment failed.',
      events: [],
    };
  });
}

/**
 * What a charge of this saved card does. A card that asks for 3-D Secure asks once: when it was saved
 * through a setup the card holder authenticated, its later payments (on or off session) go through, as
 * the provider's test card 4000 0025 0000 3155 does. A card saved without that step keeps asking.
 */
async function chargeBehaviourOf(
  ctx: SimulatorContext,
  card: { id: string; behaviour: CardBehaviour },
): Promise<CardBehaviour> {
  if (card.behaviour !== 'authenticate') return card.behaviour;
  const setUp = await ctx.db
    .selectFrom('simulator_setup_intents')
    .select('id')
    .where('payment_method_id', '=', card.id)
    .where('status', '=', 'succeeded')
    .executeTakeFirst();
  return setUp ? 'succeed' : 'authenticate';
}
