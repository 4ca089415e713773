import { lockInvoice } from '../../repositories/invoices.ts';
import { settleOpenInvoiceCharges } from '../payments/open-charges.ts';
import type { PaymentDeps } from '../payments/payment-deps.ts';
import { liftOverdueRestriction } from './restrictions.ts';

export type VoidResult = { status: 'voided' } | { status: 'refused'; reason: string };

const FORGIVEN = 'The invoice was forgiven.';

/**
 * An operator forgives an open invoice: it is no longer collected and no longer counts as overdue, and the
 * credit it consumed goes back to the balance. Payments of it still open are first cancelled at the
 * provider (or settled, if they went through meanwhile: then the invoice is paid and stays so); a payment
 * whose call is in flight right now cannot be cancelled, and if it succeeds after the invoice is void its
 * money is refunded (settle-charge), so forgiving never keeps a payment.
 */
export async function voidInvoice(
  deps: PaymentDeps,
  invoiceId: string,
  at: Date,
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
    await trx
      .updateTable('invoices')
      .set({ status: 'void', voided_at: at, next_payment_attempt_at: null })
      .where('id', '=', invoiceId)
      .execute();
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
