import type { ChargeRow } from '../../repositories/charges.ts';
import { lockCharge } from '../../repositories/charges.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import { notBackingOff } from '../../repositories/job-failures.ts';
import { recordRefundedTotal } from './provider-refund.ts';
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

/**
 * Asks the provider for the refund a charge owes (what of the payment was not given back yet) and
 * records it; a provider failure is thrown. A payment given back all already (a refund made in the
 * provider's dashboard, whose event may not have come yet) settles the refund without asking.
 */
export async function issueRefund(deps: PaymentDeps, charge: ChargeRow): Promise<ChargeRow> {
  if (charge.refund_status !== 'pending' || !charge.provider_ref) return charge;
  const owed = charge.amount_cents - charge.amount_refunded_cents;
  const { refundRef } =
    owed > 0
      ? await deps.gateway.refund({
          providerRef: charge.provider_ref,
          amountCents: owed,
          idempotencyKey: `refund:${charge.id}`,
          reason: charge.refund_reason ?? 'The payment was not needed.',
        })
      : { refundRef: null };
  const at = deps.clock.now();
  return deps.db.transaction().execute(async (trx) => {
    // Invoice first, then charge, as every settler locks them.
    if (charge.invoice_id) await lockInvoice(trx, charge.invoice_id);
    const current = await lockCharge(trx, charge.id);
    if (!current || current.refund_status !== 'pending') return current ?? charge;
    if (refundRef === null && current.amount_refunded_cents < current.amount_cents) {
      // The provider gave it all back before its event told us: recorded (and audited) now.
      await recordRefundedTotal(trx, current, current.amount_cents, at);
      return (await lockCharge(trx, charge.id)) ?? current;
    }
    const refunded = await trx
      .updateTable('charges')
      .set({
        refund_status: 'succeeded',
        refunded_at: at,
        ...(refundRef ? { refund_ref: refundRef } : {}),
      })
      .where('id', '=', charge.id)
      .returningAll()
      .executeTakeFirst();
    return refunded ?? current;
  });
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
