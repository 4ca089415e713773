import {
  type SimulatorPaymentResponse,
  type SimulatorSetupConfirmResponse,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import {
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
import { cardPepper, tokenizeCard, type TokenizedCard } from './cards.ts';
import { resolveChallenge } from './challenges.ts';
import {
  cancelPaymentIntent,
  charge,
  confirmPaymentIntent,
  findPaymentIntentByKey,
  retrievePaymentIntent,
} from './payment-intents.ts';
import { refund } from './refunds.ts';
import { attachPaymentMethod, createCard, detachPaymentMethod, mayCharge } from './saved-cards.ts';
import { confirmSetupIntent, createSetupIntent, retrieveSetupIntent } from './setup-intents.ts';
import type { SimulatorContext, SimulatorResult } from './shared.ts';

export {
  AUTHENTICATION_REQUIRED,
  DETACHED_PAYMENT_METHOD,
  NO_SUCH_PAYMENT_METHOD,
  PAYMENT_CANCELED,
  SimulatorRequestError,
  type SimulatorResult,
} from './shared.ts';

/**
 * The built-in payment provider, with the card provider's test-mode semantics. It keeps its own tables
 * (its cards, intents and challenges), as a real provider keeps its own records.
 */
export class PaymentSimulator implements PaymentGateway {
  readonly provider = 'simulator';

  /** Each verb lives in the file of its idea (saved cards, payment and setup intents, challenges, refunds). */
  private readonly context: SimulatorContext;

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {
    this.context = { db, now, tokenize: (card, trx) => this.tokenize(card, trx) };
  }

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

  /** Tokenizes a card for a one-off payment: it belongs to no customer until attached. */
  async createCard(card: CardDetails): Promise<ProviderCard> {
    return createCard(this.context, card);
  }

  /** Saves a tokenized card for an organization, as the provider attaches a payment method to a customer. */
  async attachPaymentMethod(
    providerPaymentMethodId: string,
    organizationId: string,
  ): Promise<void> {
    return attachPaymentMethod(this.context, providerPaymentMethodId, organizationId);
  }

  async mayCharge(organizationId: string, providerPaymentMethodId: string): Promise<boolean> {
    return mayCharge(this.context, organizationId, providerPaymentMethodId);
  }

  /** Detaches a saved card from its customer for good, as the provider does: it can pay nothing after. */
  async detachPaymentMethod(providerPaymentMethodId: string): Promise<void> {
    return detachPaymentMethod(this.context, providerPaymentMethodId);
  }

  async charge(request: ChargeRequest): Promise<PaymentIntentState> {
    return charge(this.context, request);
  }

  async findPaymentIntentByKey(idempotencyKey: string): Promise<PaymentIntentState | null> {
    return findPaymentIntentByKey(this.context, idempotencyKey);
  }

  async retrievePaymentIntent(providerRef: string): Promise<PaymentIntentState> {
    return retrievePaymentIntent(this.context, providerRef);
  }

  async cancelPaymentIntent(providerRef: string): Promise<PaymentIntentState> {
    return cancelPaymentIntent(this.context, providerRef);
  }

  /** The browser confirms an on-session payment intent with its client secret (3-D Secure, if asked). */
  async confirmPaymentIntent(
    clientSecret: string,
  ): Promise<SimulatorResult<SimulatorPaymentResponse>> {
    return confirmPaymentIntent(this.context, clientSecret);
  }

  async createSetupIntent(request: SetupIntentRequest): Promise<CreatedSetupIntent> {
    return createSetupIntent(this.context, request);
  }

  async retrieveSetupIntent(providerSetupIntentId: string): Promise<SetupIntentState> {
    return retrieveSetupIntent(this.context, providerSetupIntentId);
  }

  /** Confirms a setup with the card typed into the simulator's card form. */
  async confirmSetupIntent(
    clientSecret: string,
    card: CardDetails,
  ): Promise<SimulatorResult<SimulatorSetupConfirmResponse>> {
    return confirmSetupIntent(this.context, clientSecret, card);
  }

  /** The challenge screen's two buttons. The first answer settles it; a repeat answers the same. */
  async resolveChallenge(
    challengeId: string,
    outcome: 'complete' | 'fail',
  ): Promise<SimulatorResult<{ status: 'succeeded'; setup_intent_id?: string }>> {
    return resolveChallenge(this.context, challengeId, outcome);
  }

  async refund(request: RefundRequest): Promise<{ refundRef: string }> {
    return refund(this.context, request);
  }
}
