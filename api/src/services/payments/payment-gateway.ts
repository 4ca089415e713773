/**
 * The payment port. The built-in simulator and the card provider's adapter both implement it; the rest of
 * the server never knows which one it talks to.
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
}

export type ChargeOutcome =
  | { status: 'succeeded'; providerRef: string }
  | { status: 'failed'; providerRef: string | null; message: string }
  | { status: 'requires_action'; providerRef: string; clientSecret: string };

export interface ChargeRequest {
  amountCents: number;
  providerPaymentMethodId: string;
  /** The same key always gives the same outcome and never charges twice. */
  idempotencyKey: string;
  description: string;
  /** Off session: the customer is not there to pass a challenge, so one fails the charge. */
  offSession: boolean;
}

export interface PaymentGateway {
  readonly provider: string;
  /** Tokenizes a card (in production the provider's own fields do this in the browser). */
  createCard(card: CardDetails): Promise<ProviderCard>;
  charge(request: ChargeRequest): Promise<ChargeOutcome>;
}

export class CardError extends Error {}
