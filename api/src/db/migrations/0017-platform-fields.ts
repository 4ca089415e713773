import { sql, type Kysely } from 'kysely';

// Field names of the platform API the spec was derived from (docs/decisions/008-platform-field-names.md).
// An invoice line keeps how it was priced: its quantity and unit price (unknown for lines recorded before,
// so left null), whether it gives back time on a plan change, and whether measured usage priced it. The
// last two follow from what older lines kept: only a plan change wrote "Unused time on … plan", and only
// lines priced from a metric carry one. A card keeps whether it has a billing address: the simulator's
// card form asks for none, so the cards recorded so far have none.
const statements = [
  `ALTER TABLE invoice_lines
     ADD COLUMN quantity numeric,
     ADD COLUMN unit_price numeric,
     ADD COLUMN proration boolean NOT NULL DEFAULT false,
     ADD COLUMN usage_based boolean NOT NULL DEFAULT false`,
  `UPDATE invoice_lines SET usage_based = true WHERE usage_metric IS NOT NULL`,
  `UPDATE invoice_lines SET proration = true
     WHERE description LIKE 'Unused time on % plan' AND usage_metric IS NULL`,
  `ALTER TABLE payment_methods ADD COLUMN has_address boolean NOT NULL DEFAULT false`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
