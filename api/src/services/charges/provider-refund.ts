import type { Db } from '../../db/database.ts';
import type { PaymentEvent } from '../../adapters/payment-event.ts';
import type { ChargeRow } from '../../repositories/charges.ts';
import { recordAudit } from '../../repositories/record-audit.ts';
import { CARD_PROVIDER, lockChargeOfIntent, paymentTarget } from './provider-audit.ts';

type RefundEvent = Extract<PaymentEvent, { type: 'charge.refunded' }>;

/**
 * A refund the provider reports (`charge.refunded`): the payment's refunded total, which only grows, is
 * recorded on its charge, so the invoice shows it. The total makes it idempotent: the same news twice,
 * or an older event arriving after a newer one, finds nothing new. A refund made in the provider's
 * dashboard is audited in the provider's name (and settles a refund we still owe once all is given
 * back); the echo of a refund we asked for (the charge carries our refund) is recorded without a second
 * entry.
 */
export async function recordProviderRefund(
  trx: Db,
  event: RefundEvent,
  at: Date,
): Promise<'applied' | 'unknown'> {
  const charge = await lockChargeOfIntent(trx, event.providerRef);
  if (!charge) return 'unknown';
  const total = Math.min(event.amountRefundedCents, charge.amount_cents);
  if (total <= charge.amount_refunded_cents) return 'applied';
  await recordRefundedTotal(trx, charge, total, at);
  return 'applied';
}

/**
 * Records a payment's refunded total, grown (the charge locked by the caller). A refund we still owe is
 * settled once the total reaches the payment's amount: the money went back another way (the
 * dashboard), and asking again would be refused. Any refund but the echo of ours is audited in the
 * provider's name.
 */
export async function recordRefundedTotal(
  trx: Db,
  charge: ChargeRow,
  total: number,
  at: Date,
): Promise<void> {
  const settles = charge.refund_status === 'pending' && total >= charge.amount_cents;
  await trx
    .updateTable('charges')
    .set({
      amount_refunded_cents: total,
      ...(settles ? { refund_status: 'succeeded' as const, refunded_at: at } : {}),
    })
    .where('id', '=', charge.id)
    .execute();
  if (charge.refund_status === 'succeeded') return;
  const { target, number } = await paymentTarget(trx, charge);
  await recordAudit(trx, CARD_PROVIDER, {
    organizationId: charge.organization_id,
    action: 'payment.refunded',
    target,
    before: { amount_refunded_cents: charge.amount_refunded_cents },
    after: {
      ...(number ? { number } : {}),
      amount_cents: charge.amount_cents,
      amount_refunded_cents: total,
      refunded_cents: total - charge.amount_refunded_cents,
    },
    at,
  });
}
