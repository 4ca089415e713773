import { sql } from 'kysely';
import type { ChargeRow } from '../../repositories/charges.ts';
import { IN_FLIGHT_LEASE_MS, refreshCharge } from './open-charges.ts';
import { notBackingOff } from '../../repositories/job-failures.ts';
import type { PaymentDeps } from './payment-deps.ts';

/** A charge waiting this long for the customer or the provider has maybe lost its event: ask. */
export const STALE_CHARGE_MINUTES = 15;

/**
 * Charges that may have lost their way (a request that died before or after the provider call, an event
 * that never arrived, a 3-D Secure challenge nobody answered), by wall-clock time:
 * - pending: once the caller's in-flight lease has passed (the provider is asked by the intent's id, or
 *   by the charge key when none was recorded: then it took no money, see the port's two steps);
 * - pending at the provider (processing), or waiting for 3-D Secure: after STALE_CHARGE_MINUTES without
 *   news, or at once when the challenge has expired.
 * Top-ups and invoice payments alike.
 */
export function staleCharges(deps: PaymentDeps, limit = 100): Promise<ChargeRow[]> {
  const now = deps.clock.now();
  const leaseEnd = new Date(now.getTime() - IN_FLIGHT_LEASE_MS);
  const staleBefore = new Date(now.getTime() - STALE_CHARGE_MINUTES * 60_000);
  return (
    deps.db
      .selectFrom('charges')
      .selectAll()
      .where('status', 'in', ['pending', 'requires_action'])
      .where((eb) =>
        eb.or([
          eb.and([
            eb('status', '=', 'pending'),
            eb.or([eb('attempted_at', 'is', null), eb('attempted_at', '<', leaseEnd)]),
          ]),
          eb.and([eb('provider_ref', 'is not', null), eb('updated_at', '<', staleBefore)]),
          eb.and([eb('status', '=', 'requires_action'), eb('action_expires_at', '<=', now)]),
        ]),
      )
      // Charges waiting out the backoff of an earlier failure take no place in the batch.
      .where(notBackingOff('reconcile', now))
      .orderBy(sql`coalesce(attempted_at, updated_at)`)
      .limit(limit)
      .execute()
  );
}

/**
 * Settles what the provider says of one stale charge (the guarded state machine leaves a charge settled
 * meanwhile by anyone else as it is); answers whether it ended (succeeded or failed).
 */
export async function reconcileCharge(deps: PaymentDeps, charge: ChargeRow): Promise<boolean> {
  const standing = await refreshCharge(deps, charge);
  return standing.status === 'settled';
}

/** Every stale charge reconciled; a provider failure on one is thrown (the billing job isolates it). */
export async function reconcileStaleCharges(deps: PaymentDeps): Promise<string[]> {
  const settled: string[] = [];
  for (const charge of await staleCharges(deps)) {
    if (await reconcileCharge(deps, charge)) settled.push(charge.id);
  }
  return settled;
}
