import type { Db } from '../../db/database.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import { liftOverdueRestriction } from './restrictions.ts';

export type VoidResult = { status: 'voided' } | { status: 'refused'; reason: string };

/** An operator forgives an open invoice: it is no longer collected and no longer counts as overdue. */
export async function voidInvoice(db: Db, invoiceId: string, at: Date): Promise<VoidResult> {
  return db.transaction().execute(async (trx) => {
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
    await liftOverdueRestriction(trx, invoice.organization_id, at);
    return { status: 'voided' };
  });
}
