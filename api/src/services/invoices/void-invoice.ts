import { OPERATOR_CLI, recordAudit, type AuditContext } from '../../repositories/record-audit.ts';
import { openInvoiceCharges } from '../../repositories/charges.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import { settleOpenInvoiceCharges } from '../charges/open-charges.ts';
import type { PaymentDeps } from '../charges/payment-deps.ts';
import { liftOverdueRestriction } from '../restrictions/restrictions.ts';

export type VoidResult = { status: 'voided' } | { status: 'refused'; reason: string };

export const FORGIVEN = 'The invoice was forgiven.';
export const PAYMENT_IN_FLIGHT =
  'A payment of this invoice is under way at the payment provider; try again in a few minutes';

/**
 * An operator forgives an open invoice: it is no longer collected and no longer counts as overdue, and the
 * credit it consumed goes back to the balance. Payments of it still open are first cancelled at the
 * provider (or settled, if they went through meanwhile: then the invoice is paid and stays so); while a
 * payment's call is in flight right now (it cannot be cancelled) forgiving is refused, to be tried again.
 * Should a success still come after the invoice is void, its money is refunded (settle-charge).
 */
export async function voidInvoice(
  deps: PaymentDeps,
  invoiceId: string,
  at: Date,
  /** Forgiving is an operator's act (the CLI); no route of the API does it. */
  audit: AuditContext = OPERATOR_CLI,
): Promise<VoidResult> {
  const before = await deps.db
    .selectFrom('invoices')
    .select('status')
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!before) return { status: 'refused', reason: 'No such invoice' };
  if (before.status === 'open' || before.status === 'uncollectible') {
    await settleOpenInvoiceCharges(deps, invoiceId, '', { cancelWaiting: { message: FORGIVEN } });
  }
  return deps.db.transaction().execute(async (trx) => {
    const invoice = await lockInvoice(trx, invoiceId);
    if (!invoice) return { status: 'refused', reason: 'No such invoice' };
    if (invoice.status !== 'open' && invoice.status !== 'uncollectible') {
      return { status: 'refused', reason: `A ${invoice.status} invoice cannot be forgiven` };
    }
    // A payment whose provider call is under way right now cannot be cancelled: forgive it once that
    // call has ended (its lease is minutes), rather than take money for a forgiven invoice.
    if ((await openInvoiceCharges(trx, invoiceId, '')).length > 0) {
      return { status: 'refused', reason: PAYMENT_IN_FLIGHT };
    }
    await trx
      .updateTable('invoices')
      .set({ status: 'void', voided_at: at, next_payment_attempt_at: null })
      .where('id', '=', invoiceId)
      .execute();
    await recordAudit(trx, audit, {
      organizationId: invoice.organization_id,
      action: 'invoice.voided',
      target: { type: 'invoice', id: invoiceId },
      before: { status: invoice.status, number: invoice.number },
      after: {
        status: 'void',
        number: invoice.number,
        credit_returned_cents: invoice.credit_applied_cents,
      },
      at,
    });
    if (invoice.credit_applied_cents > 0) {
      await trx
        .updateTable('subscriptions')
        .set((eb) => ({
          customer_balance_cents: eb('customer_balance_cents', '+', invoice.credit_applied_cents),
        }))
        .where('organization_id', '=', invoice.organization_id)
        .execute();
    }
    await liftOverdueRestriction(trx, invoice.organization_id, at);
    return { status: 'voided' };
  });
}
