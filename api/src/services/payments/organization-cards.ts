import type { LastCharge, PaymentMethods } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { latestCardCharges } from '../../repositories/charges.ts';
import { listPaymentMethods } from '../../repositories/payment-methods.ts';
import { FORGIVEN } from '../billing/void-invoice.ts';
import { ABANDONED_CHALLENGE, NEVER_REACHED_PROVIDER } from './open-charges.ts';
import { SUPERSEDED } from './pay-invoice.ts';
import { PAYMENT_CANCELED } from './simulator.ts';

/**
 * Failures that are ours, not the card's: the payment was cancelled (a newer attempt, the invoice
 * forgiven, an abandoned challenge) or never reached the provider. A card row must not say its last
 * charge was declined because of them.
 */
const NOT_ANSWERED_BY_CARD = [
  SUPERSEDED,
  FORGIVEN,
  ABANDONED_CHALLENGE,
  NEVER_REACHED_PROVIDER,
  PAYMENT_CANCELED,
] as const;

/** GET /payments: the organization's cards, each with the last charge it answered. */
export async function organizationCards(db: Db, organizationId: string): Promise<PaymentMethods> {
  const charges = await latestCardCharges(db, organizationId, NOT_ANSWERED_BY_CARD);
  return listPaymentMethods(db, organizationId, (providerPaymentMethodId): LastCharge | null => {
    const charge = charges.get(providerPaymentMethodId);
    if (!charge) return null;
    const at = Math.floor(charge.createdAt.getTime() / 1000);
    return charge.status === 'succeeded'
      ? { status: 'succeeded', at, decline_message: null }
      : { status: 'declined', at, decline_message: charge.failureMessage };
  });
}
