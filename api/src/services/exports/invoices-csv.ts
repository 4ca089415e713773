import type { Readable } from 'node:stream';
import type { Db } from '../../db/database.ts';
import { centsToDecimal, csvStream } from './csv-export.ts';

export const INVOICE_CSV_COLUMNS = [
  'number',
  'date',
  'period_start',
  'period_end',
  'status',
  'currency',
  'subtotal',
  'credit_applied',
  'amount_due',
  'amount_paid',
  'billing_name',
  'tax_id',
] as const;

const BATCH = 1000;
const day = (date: Date) => date.toISOString().slice(0, 10);

/** The organization's invoices, newest first, read a batch at a time along its invoice sequence. */
async function* invoiceRows(db: Db, organizationId: string) {
  let below: number | null = null;
  for (;;) {
    let query = db
      .selectFrom('invoices')
      .select([
        'sequence',
        'number',
        'finalized_at',
        'period_start',
        'period_end',
        'status',
        'subtotal_cents',
        'credit_applied_cents',
        'amount_due_cents',
        'amount_paid_cents',
        'billing_name',
        'tax_id',
      ])
      .where('organization_id', '=', organizationId)
      .orderBy('sequence', 'desc')
      .limit(BATCH);
    if (below !== null) query = query.where('sequence', '<', below);
    const rows = await query.execute();
    for (const row of rows) {
      const taxId = row.tax_id as { type?: string; value?: string } | null;
      yield [
        row.number,
        day(row.finalized_at),
        day(row.period_start),
        day(row.period_end),
        row.status,
        'USD',
        centsToDecimal(row.subtotal_cents),
        centsToDecimal(-row.credit_applied_cents),
        centsToDecimal(row.amount_due_cents),
        centsToDecimal(row.amount_paid_cents),
        row.billing_name,
        taxId?.value ? `${taxId.type ?? ''} ${taxId.value}`.trim() : null,
      ] as const;
    }
    const last = rows.at(-1);
    if (rows.length < BATCH || !last) return;
    below = last.sequence;
  }
}

export function invoicesCsv(db: Db, organizationId: string): Readable {
  return csvStream(INVOICE_CSV_COLUMNS, invoiceRows(db, organizationId));
}
