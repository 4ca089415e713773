import { createHash, randomBytes } from 'node:crypto';
import {
  AUTHENTICATION_FAILED_MESSAGE,
  type SimulatorPaymentResponse,
  type SimulatorSetupConfirmResponse,
} from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PaymentEvent } from '../payment-event.ts';
import {
  CardError,
  type CardDetails,
  type RefundRequest,
  type ChargeRequest,
  type CreatedSetupIntent,
  type PaymentGateway,
  type PaymentIntentState,
  type ProviderCard,
  type SetupIntentRequest,
  type SetupIntentState,
} from '../payment-gateway.ts';
import { DECLINE_MESSAGES, cardPepper, tokenizeCard, type TokenizedCard } from './cards.ts';

export const AUTHENTICATION_REQUIRED = 'This payment requires authentication by the card holder.';
export const PAYMENT_CANCELED = 'This payment was canceled.';
export const NO_SUCH_PAYMENT_METHOD = 'No such payment method.';
export const DETACHED_PAYMENT_METHOD =
  'This payment method was detached from its customer and may not be used again.';

const id = (prefix: string) => `${prefix}_sim_${randomBytes(12).toString('hex')}`;
const secretFor = (intentId: string) => `${intentId}_secret_${randomBytes(16).toString('hex')}`;
/** The same idempotency key names the same intent: a retried create call finds the first one. */
const idFromKey = (prefix: string, key: string) =>
  `${prefix}_sim_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;

/** A refusal of a simulator call that is not about the card: an unknown intent or challenge, a wrong state. */
export class SimulatorRequestError extends Error {
  constructor(
    readonly statusCode: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/**
 * What a browser-facing simulator call did: its answer (or the card's refusal), and the events it emits,
 * which the caller delivers to the payment event handler, as the provider delivers its webhooks.
 */
export type SimulatorResult<T> =
  | { ok: true; response: T; events: PaymentEvent[] }
  | { ok: false; message: string; events: PaymentEvent[] };

type IntentRow = {
  id: string;
  status: string;
  failure_message: string | null;
  client_secret: string;
  idempotency_key: string | null;
};

/**
 * The built-in payment provider, with the card provider's test-mode semantics. It keeps its own tables
 * (its cards, intents and challenges), as a real provider keeps its own records.
 */
export class PaymentSimulator implements PaymentGateway {
  readonly provider = 'simulator';

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  private pepper: Promise<string> | undefined;

  /** Checks a card as the provider's fields would (the provider's message for a bad one); keeps no number. */
  private async tokenize(card: CardDetails, db: Db = this.db): Promise<TokenizedCard> {
    // Read through the caller's transaction, if any: the embedded database has one connection.
    this.pepper ??= cardPepper(db).catch((error: unknown) => {
      this.pepper = undefined;
      throw error;
    });
    return tokenizeCard(card, await this.pepper, this.now());
  }

  private async insertCard(db: Db, card: TokenizedCard, customer: string | null) {
    const row = {
      id: id('pm'),
      brand: card.brand,
      last4: card.last4,
      fingerprint: card.fingerprint,
      behaviour: card.behaviour,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      customer,
    };
    await db.insertInto('simulator_payment_methods').values(row).execute();
    return row;
  }

  /** Tokenizes a card for a one-off payment: it belongs to no customer until attached. */
  async createCard(card: CardDetails): Promise<ProviderCard> {
    const row = await this.insertCard(this.db, await this.tokenize(card), null);
    return {
      providerPaymentMethodId: row.id,
      brand: row.brand,
      last4: row.last4,
      expMonth: row.exp_month,
      expYear: row.exp_year,
      // The simulator's card form asks for number, expiry and CVC only.
      hasAddress: false,
    };
  }

  /** Saves a tokenized card for an organization, as the provider attaches a payment method to a customer. */
  async attachPaymentMethod(
    providerPaymentMethodId: string,
    organizationId: string,
  ): Promise<void> {
    const attached = await this.db
      .updateTable('simulator_payment_methods')
      .set({ customer: organizationId })
      .where('id', '=', providerPaymentMethodId)
      .where('detached_at', 'is', null)
      .where((eb) => eb.or([eb('customer', 'is', null), eb('customer', '=', organizationId)]))
      .executeTakeFirst();
    if (attached.numUpdatedRows !== 1n) {
      throw new SimulatorRequestError(
        409,
        'This payment method belongs to another customer or was detached.',
      );
    }
  }

  async mayCharge(organizationId: string, providerPaymentMethodId: string): Promise<boolean> {
    const card = await this.db
      .selectFrom('simulator_payment_methods')
      .select(['customer', 'detached_at'])
      .where('id', '=', providerPaymentMethodId)
      .executeTakeFirst();
    if (!card || card.detached_at) return false;
    return card.customer === null || card.customer === organizationId;
  }

  async charge(request: ChargeRequest): Promise<PaymentIntentState> {
    // The same key again answers from the record; one created but left unconfirmed is confirmed now.
    const existing = await this.findIntentByKey(request.idempotencyKey);
    if (existing && existing.status !== UNCONFIRMED) return chargeOutcomeOf(existing);

    const card = await this.db
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
    const behaviour = card.behaviour;
    let status: string;
    let failure: string | null = null;
    if (behaviour === 'succeed') status = 'succeeded';
    else if (behaviour === 'authenticate') {
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
    await this.db
      .insertInto('simulator_payment_intents')
      .values(intent)
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .execute();
    const created = await this.findIntentByKey(request.idempotencyKey);
    if (!created) throw new Error('The simulator lost a payment intent');
    if (created.status !== UNCONFIRMED) return chargeOutcomeOf(created);
    await request.recordIntent?.(created.id);
    const confirmed = await this.db
      .updateTable('simulator_payment_intents')
      .set({ status, failure_message: failure, updated_at: this.now() })
      .where('id', '=', created.id)
      .where('status', '=', UNCONFIRMED)
      .returningAll()
      .executeTakeFirst();
    return chargeOutcomeOf(
      confirmed ?? (await this.findIntentByKey(request.idempotencyKey)) ?? created,
    );
  }

  private findIntentByKey(key: string) {
    return this.db
      .selectFrom('simulator_payment_intents')
      .selectAll()
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  async findPaymentIntentByKey(idempotencyKey: string): Promise<PaymentIntentState | null> {
    // One never confirmed is cancelled, so that it can take no money later.
    await this.db
      .updateTable('simulator_payment_intents')
      .set({ status: 'canceled', failure_message: PAYMENT_CANCELED, updated_at: this.now() })
      .where('idempotency_key', '=', idempotencyKey)
      .where('status', '=', UNCONFIRMED)
      .execute();
    const intent = await this.findIntentByKey(idempotencyKey);
    return intent && intent.status !== 'canceled' ? chargeOutcomeOf(intent) : null;
  }

  async refund(request: RefundRequest): Promise<{ refundRef: string }> {
    return this.db.transaction().execute(async (trx) => {
      const intent = await trx
        .selectFrom('simulator_payment_intents')
        .selectAll()
        .where('id', '=', request.providerRef)
        .forUpdate()
        .executeTakeFirst();
      if (!intent) throw new SimulatorRequestError(404, 'No such payment intent.');
      // The provider answers a repeated key from its record: one refund per key.
      const refundRef = idFromKey('re', request.idempotencyKey);
      const refunded = await trx
        .insertInto('simulator_refunds')
        .values({
          id: refundRef,
          payment_intent_id: intent.id,
          amount_cents: request.amountCents,
          reason: request.reason,
        })
        .onConflict((conflict) => conflict.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!refunded) return { refundRef };
      if (intent.status !== 'succeeded') {
        throw new SimulatorRequestError(409, 'Only a succeeded payment can be refunded.');
      }
      if (Number(intent.refunded_cents) + request.amountCents > Number(intent.amount_cents)) {
        throw new SimulatorRequestError(409, 'The refund exceeds what the payment took.');
      }
      await trx
        .updateTable('simulator_payment_intents')
        .set({
          refunded_cents: Number(intent.refunded_cents) + request.amountCents,
          updated_at: this.now(),
        })
        .where('id', '=', intent.id)
        .execute();
      return { refundRef };
    });
  }

  async retrievePaymentIntent(providerRef: string): Promise<PaymentIntentState> {
    const intent = await this.db
      .selectFrom('simulator_payment_intents')
      .selectAll()
      .where('id', '=', providerRef)
      .executeTakeFirst();
    if (!intent) throw new SimulatorRequestError(404, 'No such payment intent.');
    return chargeOutcomeOf(intent);
  }

  async cancelPaymentIntent(providerRef: string): Promise<PaymentIntentState> {
    return this.db.transaction().execute(async (trx) => {
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
        .set({ status: 'canceled', failure_message: PAYMENT_CANCELED, updated_at: this.now() })
        .where('id', '=', providerRef)
        .execute();
      await this.cancelChallenges(trx, 'payment', providerRef);
      return { status: 'failed', providerRef, message: PAYMENT_CANCELED };
    });
  }

  async createSetupIntent(request: SetupIntentRequest): Promise<CreatedSetupIntent> {
    const intentId = idFromKey('seti', request.idempotencyKey);
    await this.db
      .insertInto('simulator_setup_intents')
      .values({
        id: intentId,
        client_secret: secretFor(intentId),
        status: 'requires_payment_method',
        metadata: JSON.stringify({ organization_id: request.organizationId }),
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    const row = await this.db
      .selectFrom('simulator_setup_intents')
      .select(['id', 'client_secret'])
      .where('id', '=', intentId)
      .executeTakeFirstOrThrow();
    return { providerSetupIntentId: row.id, clientSecret: row.client_secret };
  }

  async retrieveSetupIntent(providerSetupIntentId: string): Promise<SetupIntentState> {
    const row = await this.db
      .selectFrom('simulator_setup_intents')
      .leftJoin(
        'simulator_payment_methods',
        'simulator_payment_methods.id',
        'simulator_setup_intents.payment_method_id',
      )
      .select([
        'simulator_setup_intents.id',
        'simulator_setup_intents.status',
        'simulator_payment_methods.id as pm_id',
        'simulator_payment_methods.last4',
        'simulator_payment_methods.brand',
        'simulator_payment_methods.exp_month',
        'simulator_payment_methods.exp_year',
      ])
      .where('simulator_setup_intents.id', '=', providerSetupIntentId)
      .executeTakeFirst();
    if (!row) throw new SimulatorRequestError(404, 'No such setup intent.');
    const card =
      row.status === 'succeeded' && row.pm_id && row.last4 && row.brand
        ? {
            providerPaymentMethodId: row.pm_id,
            brand: row.brand,
            last4: row.last4,
            expMonth: row.exp_month ?? 0,
            expYear: row.exp_year ?? 0,
            hasAddress: false,
          }
        : null;
    return { providerSetupIntentId: row.id, status: row.status, card };
  }

  /** Detaches a saved card from its customer for good, as the provider does: it can pay nothing after. */
  async detachPaymentMethod(providerPaymentMethodId: string): Promise<void> {
    const card = await this.db
      .updateTable('simulator_payment_methods')
      .set({ detached_at: this.now() })
      .where('id', '=', providerPaymentMethodId)
      .where('detached_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (card) return;
    const known = await this.db
      .selectFrom('simulator_payment_methods')
      .select('id')
      .where('id', '=', providerPaymentMethodId)
      .executeTakeFirst();
    // Detached already: nothing more to do. Unknown: the provider's answer for a made-up id.
    if (!known) throw new SimulatorRequestError(404, NO_SUCH_PAYMENT_METHOD);
  }

  // The browser-facing side: what the provider's card fields, challenge screen and hosted pages do.

  /** Confirms a setup with the card typed into the simulator's card form. */
  async confirmSetupIntent(
    clientSecret: string,
    card: CardDetails,
  ): Promise<SimulatorResult<SimulatorSetupConfirmResponse>> {
    return this.db.transaction().execute(async (trx) => {
      const intent = await trx
        .selectFrom('simulator_setup_intents')
        .selectAll()
        .where('client_secret', '=', clientSecret)
        .forUpdate()
        .executeTakeFirst();
      if (!intent) throw new SimulatorRequestError(404, 'No such setup intent.');
      // A repeated confirmation (a double submit) answers what the first one did.
      if (intent.status === 'succeeded') {
        return ok({ status: 'succeeded', setup_intent_id: intent.id });
      }
      if (intent.status === 'requires_action') {
        const challenge = await this.pendingChallenge(trx, 'setup', intent.id);
        return ok({ status: 'requires_action', setup_intent_id: intent.id, challenge });
      }
      if (intent.status === 'canceled') {
        throw new SimulatorRequestError(409, 'This card setup was canceled.');
      }
      let tokenized: TokenizedCard;
      try {
        tokenized = await this.tokenize(card, trx);
      } catch (error) {
        if (error instanceof CardError)
          return await this.refuseSetup(trx, intent.id, error.message);
        throw error;
      }
      const { behaviour } = tokenized;
      if (behaviour !== 'succeed' && behaviour !== 'authenticate') {
        return this.refuseSetup(trx, intent.id, DECLINE_MESSAGES[behaviour]);
      }
      // The setup saves the card for the organization that started it.
      const method = await this.insertCard(trx, tokenized, intent.metadata.organization_id ?? null);
      if (behaviour === 'authenticate') {
        await trx
          .updateTable('simulator_setup_intents')
          .set({
            status: 'requires_action',
            payment_method_id: method.id,
            last_error: null,
            updated_at: this.now(),
          })
          .where('id', '=', intent.id)
          .execute();
        const challenge = await this.pendingChallenge(trx, 'setup', intent.id);
        return ok({ status: 'requires_action', setup_intent_id: intent.id, challenge });
      }
      await trx
        .updateTable('simulator_setup_intents')
        .set({
          status: 'succeeded',
          payment_method_id: method.id,
          last_error: null,
          updated_at: this.now(),
        })
        .where('id', '=', intent.id)
        .execute();
      return ok({ status: 'succeeded', setup_intent_id: intent.id }, [setupSucceeded(intent.id)]);
    });
  }

  /** A declined setup saves nothing; the intent waits for another card, as the provider's does. */
  private async refuseSetup(
    trx: Db,
    intentId: string,
    message: string,
  ): Promise<SimulatorResult<never>> {
    await trx
      .updateTable('simulator_setup_intents')
      .set({ last_error: message, updated_at: this.now() })
      .where('id', '=', intentId)
      .execute();
    return { ok: false, message, events: [] };
  }

  /** The browser confirms an on-session payment intent with its client secret (3-D Secure, if asked). */
  async confirmPaymentIntent(
    clientSecret: string,
  ): Promise<SimulatorResult<SimulatorPaymentResponse>> {
    return this.db.transaction().execute(async (trx) => {
      const intent = await trx
        .selectFrom('simulator_payment_intents')
        .selectAll()
        .where('client_secret', '=', clientSecret)
        .forUpdate()
        .executeTakeFirst();
      if (!intent) throw new SimulatorRequestError(404, 'No such payment intent.');
      if (intent.status === 'succeeded') return ok({ status: 'succeeded' });
      if (intent.status === 'requires_action') {
        const challenge = await this.pendingChallenge(trx, 'payment', intent.id);
        return ok({ status: 'requires_action', challenge });
      }
      return {
        ok: false,
        message: intent.failure_message ?? 'Payment failed.',
        events: [],
      };
    });
  }

  /** The challenge screen's two buttons. The first answer settles it; a repeat answers the same. */
  async resolveChallenge(
    challengeId: string,
    outcome: 'complete' | 'fail',
  ): Promise<SimulatorResult<{ status: 'succeeded'; setup_intent_id?: string }>> {
    return this.db.transaction().execute(async (trx) => {
      const challenge = await trx
        .selectFrom('simulator_challenges')
        .selectAll()
        .where('id', '=', challengeId)
        .forUpdate()
        .executeTakeFirst();
      if (!challenge) throw new SimulatorRequestError(404, 'No such authentication challenge.');
      const setupId = challenge.intent_type === 'setup' ? challenge.intent_id : undefined;
      const succeeded = ok({
        status: 'succeeded' as const,
        ...(setupId ? { setup_intent_id: setupId } : {}),
      });
      if (challenge.status === 'completed') return succeeded;
      if (challenge.status === 'failed') {
        return { ok: false, message: AUTHENTICATION_FAILED_MESSAGE, events: [] };
      }
      if (challenge.status === 'canceled') {
        return { ok: false, message: PAYMENT_CANCELED, events: [] };
      }

      const at = this.now();
      await trx
        .updateTable('simulator_challenges')
        .set({ status: outcome === 'complete' ? 'completed' : 'failed', resolved_at: at })
        .where('id', '=', challengeId)
        .execute();

      if (challenge.intent_type === 'setup') {
        if (outcome === 'complete') {
          await trx
            .updateTable('simulator_setup_intents')
            .set({ status: 'succeeded', updated_at: at })
            .where('id', '=', challenge.intent_id)
            .where('status', '=', 'requires_action')
            .execute();
          return { ...succeeded, events: [setupSucceeded(challenge.intent_id)] };
        }
        // A failed authentication keeps no card: the setup waits for another one.
        await trx
          .updateTable('simulator_setup_intents')
          .set({
            status: 'requires_payment_method',
            payment_method_id: null,
            last_error: AUTHENTICATION_FAILED_MESSAGE,
            updated_at: at,
          })
          .where('id', '=', challenge.intent_id)
          .execute();
        return { ok: false, message: AUTHENTICATION_FAILED_MESSAGE, events: [] };
      }

      const intent = await trx
        .selectFrom('simulator_payment_intents')
        .select(['id', 'idempotency_key', 'status'])
        .where('id', '=', challenge.intent_id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (intent.status !== 'requires_action') {
        throw new SimulatorRequestError(409, 'This payment no longer needs authentication.');
      }
      if (outcome === 'complete') {
        await trx
          .updateTable('simulator_payment_intents')
          .set({ status: 'succeeded', failure_message: null, updated_at: at })
          .where('id', '=', intent.id)
          .execute();
        return {
          ...succeeded,
          events: [
            {
              id: id('evt'),
              type: 'payment_intent.succeeded',
              providerRef: intent.id,
              chargeKey: intent.idempotency_key,
            },
          ],
        };
      }
      await trx
        .updateTable('simulator_payment_intents')
        .set({ status: 'failed', failure_message: AUTHENTICATION_FAILED_MESSAGE, updated_at: at })
        .where('id', '=', intent.id)
        .execute();
      return {
        ok: false,
        message: AUTHENTICATION_FAILED_MESSAGE,
        events: [
          {
            id: id('evt'),
            type: 'payment_intent.payment_failed',
            providerRef: intent.id,
            chargeKey: intent.idempotency_key,
            message: AUTHENTICATION_FAILED_MESSAGE,
          },
        ],
      };
    });
  }

  /** The intent's open challenge, created on first sight; one at a time per intent. */
  private async pendingChallenge(
    trx: Db,
    intentType: 'setup' | 'payment',
    intentId: string,
  ): Promise<{ id: string }> {
    const existing = await trx
      .selectFrom('simulator_challenges')
      .select('id')
      .where('intent_type', '=', intentType)
      .where('intent_id', '=', intentId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (existing) return existing;
    // The id is the only thing that authorizes answering the challenge: unguessable, like a secret.
    const challengeId = `chl_sim_${randomBytes(24).toString('base64url')}`;
    await trx
      .insertInto('simulator_challenges')
      .values({ id: challengeId, intent_type: intentType, intent_id: intentId, status: 'pending' })
      .execute();
    return { id: challengeId };
  }

  private async cancelChallenges(trx: Db, intentType: 'setup' | 'payment', intentId: string) {
    await trx
      .updateTable('simulator_challenges')
      .set({ status: 'canceled', resolved_at: sql`now()` })
      .where('intent_type', '=', intentType)
      .where('intent_id', '=', intentId)
      .where('status', '=', 'pending')
      .execute();
  }
}

function ok<T>(response: T, events: PaymentEvent[] = []): SimulatorResult<T> {
  return { ok: true, response, events };
}

function setupSucceeded(setupIntentId: string): PaymentEvent {
  return { id: id('evt'), type: 'setup_intent.succeeded', providerSetupIntentId: setupIntentId };
}

/** An intent created but not yet confirmed: no money can have moved. */
const UNCONFIRMED = 'requires_confirmation';

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
