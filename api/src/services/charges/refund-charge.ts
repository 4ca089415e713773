import type { ChargeRow } from '../../repositories/charges.ts';
import { notBackingOff } from '../../repositories/job-failures.ts';
import type { PaymentDeps } from './payment-deps.ts';

/** The refund a settled charge owes, if any; answers the charge as it then stands. */
export async function refundOwed(deps: PaymentDeps, charge: ChargeRow): Promise<ChargeRow> {
  try {
    return await issueRefund(deps, charge);
  } catch {
    // The provider did not answer: the charge stays marked, and reconciliation asks again.
    return charge;
  }
}

/** Asks the provider for the refund a charge owes and records it; a provider failure is thrown. */
export async function issueRefund(deps: PaymentDeps, charge: ChargeRow): Promise<ChargeRow> {
  if (charge.refund_status !== 'pending' || !charge.provider_ref) return charge;
  {
    const { refundRef } = await deps.gateway.refund({
      providerRef: charge.provider_ref,
      amountCents: charge.amount_cents,
      idempotencyKey: `refund:${charge.id}`,
      reason: charge.refund_reason ?? 'The payment was not needed.',
    });
    const refunded = await deps.db
      .updateTable('charges')
      .set({ refund_status: 'succeeded', refund_ref: refundRef, refunded_at: deps.clock.now() })
      .where('id', '=', charge.id)
      .where('refund_status', '=', 'pending')
      .returningAll()
      .executeTakeFirst();
    return refunded ?? charge;
  }
}

/** Refunds still owed (the provider failed when they were first asked): the billing job's sweep. */
export async function chargesOwingRefunds(deps: PaymentDeps, limit = 100): Promise<ChargeRow[]> {
  return (
    deps.db
      .selectFrom('charges')
      .selectAll()
      .where('refund_status', '=', 'pending')
      // Refunds waiting out the backoff of an earlier failure take no place in the batch.
      .where(notBackingOff('refund', deps.clock.now()))
      .orderBy('updated_at')
      .limit(limit)
      .execute()
  );
}
