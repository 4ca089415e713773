import type { Db } from '../../db/database.ts';
import type { PaymentEvent } from '../../adapters/payment-event.ts';
import { newId } from '../../lib/ids.ts';
import { recordAudit } from '../../repositories/record-audit.ts';
import { enqueueBillingEmail } from '../notifications/enqueue-email.ts';
import { CARD_PROVIDER, lockChargeOfIntent, paymentTarget } from './provider-audit.ts';

type DisputeEvent = Extract<
  PaymentEvent,
  { type: 'charge.dispute.created' | 'charge.dispute.updated' | 'charge.dispute.closed' }
>;

/** How far along a dispute's status is: waiting for evidence, then reviewed, then closed. */
function statusRank(status: string): number {
  if (status === 'needs_response' || status === 'warning_needs_response') return 0;
  if (status === 'under_review' || status === 'warning_under_review') return 1;
  return 2;
}

/**
 * A dispute of a payment (a chargeback), as the provider's events tell it: recorded on its charge and
 * invoice, audited in the provider's name, and mailed to the billing recipients when it opens and when
 * it closes. The first event known opens it (an update may come before its creation); the newest event
 * wins, so one arriving late, or twice, changes nothing, and a closed dispute is not reopened.
 */
export async function recordDispute(
  trx: Db,
  provider: string,
  event: DisputeEvent,
  at: Date,
): Promise<'applied' | 'unknown'> {
  // The charge locked before its dispute is looked for: locking a dispute row not written yet would
  // lock nothing, and two first events would both insert.
  const charge = await lockChargeOfIntent(trx, event.providerRef);
  if (!charge) return 'unknown';
  const closed = event.type === 'charge.dispute.closed';
  const existing = await trx
    .selectFrom('charge_disputes')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_dispute_id', '=', event.providerDisputeId)
    .forUpdate()
    .executeTakeFirst();
  if (existing) {
    const then = existing.provider_updated_at.getTime();
    const now = event.occurredAt.getTime();
    // Events of the same second come in any order: the status further along wins.
    const older =
      then > now || (then === now && statusRank(event.status) < statusRank(existing.status));
    const reopening = existing.closed_at !== null && !closed;
    const same =
      existing.status === event.status &&
      existing.amount_cents === event.amountCents &&
      closed === (existing.closed_at !== null);
    if (older || reopening || same) return 'applied';
  }
  const values = {
    amount_cents: event.amountCents,
    reason: event.reason,
    status: event.status,
    closed_at: closed ? event.occurredAt : null,
    provider_updated_at: event.occurredAt,
  };
  if (existing) {
    await trx.updateTable('charge_disputes').set(values).where('id', '=', existing.id).execute();
  } else {
    await trx
      .insertInto('charge_disputes')
      .values({
        ...values,
        id: newId('dp'),
        provider,
        provider_dispute_id: event.providerDisputeId,
        organization_id: charge.organization_id,
        charge_id: charge.id,
        invoice_id: charge.invoice_id,
        opened_at: event.openedAt,
      })
      .execute();
  }

  const { target, number } = await paymentTarget(trx, charge);
  const facts = {
    ...(number ? { number } : {}),
    amount_cents: event.amountCents,
    reason: event.reason,
    status: event.status,
  };
  await recordAudit(trx, CARD_PROVIDER, {
    organizationId: charge.organization_id,
    action: !existing
      ? 'payment.dispute_opened'
      : closed
        ? 'payment.dispute_closed'
        : 'payment.dispute_updated',
    target,
    before: existing ? { status: existing.status, amount_cents: existing.amount_cents } : null,
    after: facts,
    at,
  });
  // Opened and closed are news to the billing recipients; the steps between are in the audit log.
  const stages = [
    ...(!existing ? ['opened' as const] : []),
    ...(closed ? ['closed' as const] : []),
  ];
  for (const stage of stages) {
    await enqueueBillingEmail(trx, charge.organization_id, `${event.providerDisputeId}:${stage}`, {
      kind: 'payment.disputed',
      invoiceId: charge.invoice_id,
      invoiceNumber: number,
      amountCents: event.amountCents,
      reason: event.reason,
      status: event.status,
      stage,
    });
  }
  return 'applied';
}
