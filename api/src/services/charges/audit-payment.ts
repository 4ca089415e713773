import type { Db } from '../../db/database.ts';
import type { ChargeRow } from '../../repositories/charges.ts';
import { cardOf, recordAudit, storedAuditContext } from '../../repositories/record-audit.ts';

/**
 * A payment's failure in the audit log, in the transaction that settles the charge as failed, once (the
 * state machine moves a charge to `failed` once), in the name of whoever started the payment (none: the
 * billing job). What it was for decides the action: an invoice, a top-up, a plan change or a toggle of
 * the spend cap.
 */
export async function recordPaymentFailure(
  trx: Db,
  charge: ChargeRow,
  message: string,
  at: Date,
): Promise<void> {
  const base = {
    amount_cents: charge.amount_cents,
    card: await chargedCard(trx, charge),
    failure_message: message,
  };
  const organizationId = charge.organization_id;
  const audit = storedAuditContext(charge.audit_context);
  if (charge.purpose === 'top_up') {
    const target = { type: 'credit_top_up', id: charge.id } as const;
    await recordAudit(trx, audit, {
      organizationId,
      action: 'credits.top_up_failed',
      target,
      after: base,
      at,
    });
    return;
  }
  if (charge.purpose === 'plan_change' && charge.plan_change_id) {
    const change = await trx
      .selectFrom('plan_changes')
      .select(['kind', 'to_plan', 'to_usage_billing_enabled'])
      .where('id', '=', charge.plan_change_id)
      .executeTakeFirstOrThrow();
    const target = { type: 'plan_change', id: charge.plan_change_id } as const;
    const after =
      change.kind === 'spend_cap'
        ? { ...base, spend_cap: !change.to_usage_billing_enabled }
        : { ...base, plan: change.to_plan };
    const action = change.kind === 'spend_cap' ? 'spend_cap.update_failed' : 'plan.change_failed';
    await recordAudit(trx, audit, { organizationId, action, target, after, at });
    return;
  }
  if (!charge.invoice_id) return;
  const invoice = await trx
    .selectFrom('invoices')
    .select(['number', 'status'])
    .where('id', '=', charge.invoice_id)
    .executeTakeFirstOrThrow();
  const target = { type: 'invoice', id: charge.invoice_id } as const;
  const after = { ...base, number: invoice.number, status: invoice.status };
  await recordAudit(trx, audit, {
    organizationId,
    action: 'invoice.payment_failed',
    target,
    after,
    at,
  });
}

/** The card a charge was made with, as the audit log names it (null once the card is removed). */
export async function chargedCard(trx: Db, charge: ChargeRow) {
  if (!charge.payment_method_id) return null;
  const method = await trx
    .selectFrom('payment_methods')
    .select(['id', 'brand', 'last4'])
    .where('id', '=', charge.payment_method_id)
    .executeTakeFirst();
  return cardOf(method);
}
