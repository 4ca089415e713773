import type { ComponentType, ReactNode } from 'react';
import { isApiError } from '../data/api-client';
import type { PaymentsConfig } from '@meterline/domain';

export type PaymentProvider = PaymentsConfig['payment_provider'];

/** The spec's fallback for a card problem the provider gave no words for (leading space included). */
export const CARD_PROCESSING_FALLBACK = ' Failed to process card details';

/**
 * A card the provider refused or could not process (declined, incomplete, failed authentication):
 * the message is the provider's own, meant for the customer as it is.
 */
export class CardError extends Error {
  constructor(message: string | null | undefined) {
    super(message?.trim() ? message : CARD_PROCESSING_FALLBACK);
    this.name = 'CardError';
  }
}

/**
 * The provider answers a card problem with 402 (declined) or 400 (details it cannot use); either is
 * the customer's to fix, in the provider's words. Anything else (network, 5xx) stays what it is.
 */
export function asCardError(error: unknown): unknown {
  if (isApiError(error, 402) || isApiError(error, 400)) return new CardError(error.message);
  return error;
}

/** The name and address the provider keeps with a card (its billing details). */
export interface BillingDetails {
  name?: string;
  address?: {
    line1: string;
    line2?: string;
    city: string;
    state?: string;
    postal_code: string;
    country: string;
  } | null;
}

/** What a form inside the port's `CardScope` does with the card typed into `CardFields`. */
export interface CardEntry {
  /**
   * Checks the fields without contacting anyone; shows what is wrong beside the fields and moves
   * focus to the first. True when the card can be sent.
   */
  validate(): boolean;
  /**
   * Confirms a setup intent with the card: the provider tokenizes it, asks for 3-D Secure when the
   * bank wants it, and answers the confirmed setup's id. Rejects with `CardError` on a decline or a
   * failed challenge; nothing is saved then.
   */
  confirmSetup(clientSecret: string, billing?: BillingDetails): Promise<{ setupIntentId: string }>;
  /**
   * Tokenizes the card at the provider for a one-off payment (the hosted invoice page): answers the
   * provider's payment method, saved for no one. Rejects with `CardError` when the provider refuses
   * the card (an invalid number, a past expiry); a decline comes only when it is charged.
   */
  createPaymentMethod(billing?: BillingDetails): Promise<{ paymentMethodId: string }>;
}

export type PaymentOutcome = 'succeeded' | 'processing';

/**
 * The browser side of the payment port (decision 004). The simulator and Stripe implement it; the
 * screens only talk to it, so they are the same with either.
 */
export interface PaymentPort {
  readonly provider: PaymentProvider;
  /** Wraps a form that collects a card; gives it `useCardEntry()`. */
  readonly CardScope: ComponentType<{ children: ReactNode }>;
  /** The card fields (inside `CardScope`). */
  readonly CardFields: ComponentType<{ disabled?: boolean }>;
  /**
   * Confirms a payment intent by its client secret (a top-up with a saved card, an invoice paid on
   * the hosted page), with the 3-D Secure challenge when the bank asks for one. Rejects with
   * `CardError` when the payment fails.
   */
  confirmPayment(clientSecret: string): Promise<PaymentOutcome>;
}
