import type { Db } from '../../db/database.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { settleCharge } from './settle-charge.ts';

/** A charge left waiting this long has lost its request and its event: ask the provider instead. */
export const STALE_CHARGE_MINUTES = 15;

/**
 * Settles charges stuck in `pending` or `requires_action` (a request that died after the provider call, an
 * event that never arrived) from the provider's own record of the intent. Settling is the guarded state
 * machine, so a charge settled meanwhile by anyone else is left as it is.
 */
export async function reconcileStaleCharges(
  db: Db,
  gateway: PaymentGateway,
  at: Date,
): Promise<string[]> {
  const stale = await db
    .selectFrom('charges')
    .select(['id', 'provider_ref'])
    .where('status', 'in', ['pending', 'requires_action'])
    .where('provider_ref', 'is not', null)
    .where('updated_at', '<', new Date(at.getTime() - STALE_CHARGE_MINUTES * 60_000))
    .orderBy('updated_at')
    .limit(100)
    .execute();
  const settled: string[] = [];
  for (const charge of stale) {
    try {
      const state = await gateway.retrievePaymentIntent(charge.provider_ref ?? '');
      const after = await settleCharge(db, charge.id, state, at);
      if (after.status === 'succeeded' || after.status === 'failed') settled.push(charge.id);
    } catch {
      // The provider could not answer for this one now; the next run asks again.
    }
  }
  return settled;
}
