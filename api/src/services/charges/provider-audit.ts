import type { AuditTargetType } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { findChargeForIntent, lockCharge, type ChargeRow } from '../../repositories/charges.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import type { AuditContext } from '../../repositories/record-audit.ts';

/** Changes the card provider's events make (a refund in its dashboard, a dispute, a card update). */
export const CARD_PROVIDER: AuditContext = {
  actor: { type: 'provider', id: null, email: null },
  ip: null,
  user_agent: null,
};

/**
 * What a payment paid, as the audit log targets it, with the invoice's number when it paid one: the
 * invoice, the top-up, or the plan change.
 */
export async function paymentTarget(
  trx: Db,
  charge: ChargeRow,
): Promise<{ target: { type: AuditTargetType; id: string }; number: string | null }> {
  if (charge.invoice_id) {
    const invoice = await trx
      .selectFrom('invoices')
      .select('number')
      .where('id', '=', charge.invoice_id)
      .executeTakeFirst();
    return {
      target: { type: 'invoice', id: charge.invoice_id },
      number: invoice?.number ?? null,
    };
  }
  if (charge.plan_change_id) {
    return { target: { type: 'plan_change', id: charge.plan_change_id }, number: null };
  }
  return { target: { type: 'credit_top_up', id: charge.id }, number: null };
}

/**
 * The charge a provider's event about a payment intent is about, locked as every settler locks it:
 * its invoice first, then the charge. Null when no charge of ours paid through that intent.
 */
export async function lockChargeOfIntent(trx: Db, providerRef: string): Promise<ChargeRow | null> {
  const found = await findChargeForIntent(trx, providerRef, null);
  if (!found) return null;
  if (found.invoice_id) await lockInvoice(trx, found.invoice_id);
  return (await lockCharge(trx, found.id)) ?? null;
}
