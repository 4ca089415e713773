import type { UpcomingInvoiceLine } from '@meterline/domain';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/database.ts';
import type { PlanChangesTable } from '../../db/schema.ts';
import { insertInvoice } from '../../repositories/invoices.ts';
import { billingIdentity } from '../../repositories/billing-identity.ts';
import { newId } from '../../lib/ids.ts';
import { nextInvoiceNumber } from '../invoices/invoice-number.ts';

/**
 * Issues the paid invoice of an applied change (a plan change, or the spend cap turned on), numbered
 * in the organization's sequence, from `change.cycle_start` to the change: its frozen lines and amounts,
 * paid at `paidAt` by the card, the balance, or the partner that bills it. Returns its id.
 */
export async function issueChangeInvoice(
  trx: Db,
  change: Selectable<PlanChangesTable>,
  paidAt: Date,
): Promise<string> {
  const organizationId = change.organization_id;
  const total = Number(change.total_cents);
  const creditApplied = Number(change.credit_applied_cents);
  const invoiceId = newId('in');
  const { number, sequence } = await nextInvoiceNumber(trx, organizationId);
  await insertInvoice(trx, {
    kind: change.kind === 'spend_cap' ? 'spend_cap' : 'cycle',
    id: invoiceId,
    organizationId,
    number,
    sequence,
    status: 'paid',
    periodStart: change.cycle_start,
    periodEnd: change.changed_at,
    subtotalCents: total,
    creditAppliedCents: creditApplied,
    amountDueCents: Math.max(0, total - creditApplied),
    nextPaymentAttemptAt: null,
    ...(await billingIdentity(trx, organizationId)),
    planId: change.to_plan,
    finalizedAt: change.changed_at,
    lines: change.lines as UpcomingInvoiceLine[],
  });
  await trx
    .updateTable('invoices')
    .set({ billed_via_partner: change.billed_via_partner, paid_at: paidAt })
    .where('id', '=', invoiceId)
    .execute();
  return invoiceId;
}
