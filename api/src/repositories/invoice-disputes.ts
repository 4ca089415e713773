import type { InvoiceDetail } from '@meterline/domain';
import type { Db } from '../db/database.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * What the card provider says happened to an invoice's payment after it was made: the cents refunded
 * (its own refunds, made in its dashboard, of the payments that paid the invoice; a payment we refunded
 * because the invoice no longer needed it never counted as paid) and its disputes, oldest first.
 */
export async function invoiceAftermath(
  db: Db,
  invoiceId: string,
): Promise<Pick<InvoiceDetail, 'amount_refunded' | 'disputes'>> {
  const [refunded, disputes] = await Promise.all([
    db
      .selectFrom('charges')
      .select((eb) =>
        eb.fn.coalesce(eb.fn.sum<string>('amount_refunded_cents'), eb.val('0')).as('cents'),
      )
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'succeeded')
      .where('refund_status', 'is', null)
      .executeTakeFirst(),
    db
      .selectFrom('charge_disputes')
      .select(['id', 'amount_cents', 'reason', 'status', 'opened_at', 'closed_at'])
      .where('invoice_id', '=', invoiceId)
      .orderBy('opened_at')
      .orderBy('id')
      .execute(),
  ]);
  return {
    amount_refunded: Number(refunded?.cents ?? 0),
    disputes: disputes.map((row) => ({
      id: row.id,
      amount: row.amount_cents,
      reason: row.reason,
      status: row.status,
      opened_at: seconds(row.opened_at),
      closed_at: row.closed_at ? seconds(row.closed_at) : null,
    })),
  };
}
