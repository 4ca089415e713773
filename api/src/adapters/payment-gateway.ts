import { Failure } from '../lib/failure.ts';

/**
 * The payment port. The built-in simulator and the card provider's adapter both implement it; the rest of
 * the server never knows which one it talks to.
 *
 * Intents follow the card provider's model. A setup intent saves a card for later: created by the server,
 * confirmed by the browser (with a 3-D Secure challenge when the card asks for one), and only a succeeded
 * one yields a card. A payment intent charges a card: created and confirmed by the server in one call, it
 * succeeds, fails, or (on session) requires the browser to pass a challenge first.
 */
export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  cvc: string;
}

export interface ProviderCard {
  providerPaymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** The provider holds a billing address for the card (the simulator's card form asks for none). */
  hasAddress: boolean;
}

export type ChargeOutcome =
  | { status: 'succeeded'; providerRef: string }
  | { status: 'failed'; providerRef: string | null; message: string }
  | { status: 'requires_action'; providerRef: string; clientSecret: string };

/** What a payment intent is now: a charge outcome, or still processing at the provider. */
export type PaymentIntentState = ChargeOutcome | { status: 'processing'; providerRef: string };

export interface RefundRequest {
  /** The payment intent whose money goes back. */
  providerRef: string;
  amountCents: number;
  /** The same key never refunds twice. */
  idempotencyKey: string;
  reason: string;
}

export interface ChargeRequest {
  amountCents: number;
  providerPaymentMethodId: string;
  /** The same key always gives the same outcome and never charges twice. */
  idempotencyKey: string;
  description: string;
  /** Off session: the customer is not there to pass a challenge, so one fails the charge. */
  offSession: boolean;
  /** Kept on the provider's record; the charge key is always added. */
  metadata?: Record<string, string>;
  /**
   * The organization paying, when the payment method came from the browser: the intent is made for its
   * customer at the provider, and a payment method saved for another customer fails the charge.
   */
  organizationId?: string;
  /**
   * Called with the intent's id once it is created and before it is confirmed (before any money can
   * move); the payment is not confirmed when it throws. Callers store the id on their charge row, so a
   * charge without one has certainly taken no money.
   */
  recordIntent?: (providerRef: string) => Promise<void>;
}

export interface SetupIntentRequest {
  organizationId: string;
  /** Every create call carries one, so a retried call creates nothing twice. */
  idempotencyKey: string;
}

export interface CreatedSetupIntent {
  providerSetupIntentId: string;
  clientSecret: string;
}

export type SetupIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'succeeded'
  | 'canceled';

export interface SetupIntentState {
  providerSetupIntentId: string;
  status: SetupIntentStatus;
  /** The card, once the setup succeeded; null before. */
  card: ProviderCard | null;
}

export interface PaymentGateway {
  readonly provider: 'simulator' | 'stripe';
  /** Tokenizes a card (in production the provider's own fields do this in the browser). */
  createCard(card: CardDetails): Promise<ProviderCard>;
  /**
   * Whether the organization may be charged with this payment method: one the browser just tokenized
   * (attached to no customer) or one saved for the organization's own customer. Another organization's
   * card, or one the provider does not know, is refused.
   */
  mayCharge(organizationId: string, providerPaymentMethodId: string): Promise<boolean>;
  /**
   * Creates and confirms a payment intent; off session the engine's, on session the customer's. A
   * payment still processing at the provider is not a failure: it settles later (event or reconciliation).
   */
  charge(request: ChargeRequest): Promise<PaymentIntentState>;
  /** The current state of a payment intent, as the provider has it. */
  retrievePaymentIntent(providerRef: string): Promise<PaymentIntentState>;
  /**
   * The payment intent the provider holds for a charge key (the idempotency key every charge call
   * carries), or null when it has none that was confirmed: an intent created but never confirmed (its
   * caller died before recording it) is cancelled first, so it can never take money later.
   */
  findPaymentIntentByKey(idempotencyKey: string): Promise<PaymentIntentState | null>;
  /**
   * Gives a succeeded payment's money back; answers the provider's refund id, or null when the
   * provider had already given it all back (a refund made in its dashboard).
   */
  refund(request: RefundRequest): Promise<{ refundRef: string | null }>;
  /** Cancels a payment intent still waiting for the customer; answers its state afterwards. */
  cancelPaymentIntent(providerRef: string): Promise<PaymentIntentState>;
  createSetupIntent(request: SetupIntentRequest): Promise<CreatedSetupIntent>;
  retrieveSetupIntent(providerSetupIntentId: string): Promise<SetupIntentState>;
  /** Forgets a saved card at the provider (after it was removed from the organization). */
  detachPaymentMethod(providerPaymentMethodId: string): Promise<void>;
}

/** A refusal the customer may read: a decline, an invalid card, a failed authentication. */
export class CardError extends Error {}

/** The provider could not be reached or failed: nothing is known about the outcome. */
export class ProviderUnavailableError extends Failure {
  constructor(message: string, options?: ErrorOptions) {
    super('provider_unavailable', message, options);
  }
}

/**
 * The provider refused our own credentials (a wrong, revoked or restricted secret key): the operator's
 * to fix, never the caller's. Answered as an outage (the same request is safe again once fixed) and
 * logged as an error; its message never holds the key, not even masked.
 */
export class ProviderKeyRefusedError extends ProviderUnavailableError {}

/**
 * A payment's failure when the provider refused the request for a reason of ours, not the card's (an
 * amount under its minimum, a parameter it does not take): no decline of the card. The provider's own
 * message goes to the error log.
 */
export const PROVIDER_REFUSED_PAYMENT =
  'The payment provider refused this payment request; nothing was charged.';

/** Where an adapter reports what the operator must see (the server's logger). */
export interface ProviderLog {
  error(details: object, message: string): void;
}
