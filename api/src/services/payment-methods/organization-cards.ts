import type { LastCharge, PaymentMethods } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { latestCardCharges } from '../../repositories/charges.ts';
import { listPaymentMethods } from '../../repositories/payment-methods.ts';
import { NOT_ANSWERED_BY_CARD } from '../charges/card-answers.ts';

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
