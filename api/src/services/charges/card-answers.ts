import { FORGIVEN } from '../invoices/void-invoice.ts';
import { ABANDONED_CHALLENGE, NEVER_REACHED_PROVIDER } from './open-charges.ts';
import { SUPERSEDED } from '../invoices/pay-invoice.ts';
import { PAYMENT_CANCELED } from '../../adapters/simulator/simulator.ts';
import { PROVIDER_REFUSED_PAYMENT } from '../../adapters/payment-gateway.ts';

/**
 * Failures that are ours, not the card's: the payment was cancelled (a newer attempt, the invoice
 * forgiven, an abandoned challenge), never reached the provider, or the provider refused our request. A card row must not say its last
 * charge was declined because of them, and the engine does not count them as the card's decline.
 */
export const NOT_ANSWERED_BY_CARD = [
  SUPERSEDED,
  FORGIVEN,
  ABANDONED_CHALLENGE,
  NEVER_REACHED_PROVIDER,
  PAYMENT_CANCELED,
  PROVIDER_REFUSED_PAYMENT,
] as const;

/** Whether a failed charge's message is the card's own answer (a decline), not one of ours. */
export function declinedByCard(failureMessage: string | null): boolean {
  return !(NOT_ANSWERED_BY_CARD as readonly (string | null)[]).includes(failureMessage);
}
