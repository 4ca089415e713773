import { sql, type Kysely } from 'kysely';

const statements = [
  // Invoice numbers were "ML-" + the first eight hex digits of the organization id + a running count:
  // two organizations sharing those digits collided on the unique number and their cycle close failed.
  // Each organization now draws a prefix once, from one global sequence, and keeps it (unique). Those
  // that already have invoices keep the prefix their numbers carry, so existing numbers stay as they
  // are and their next invoice continues the series; the others draw one on their first invoice.
  `CREATE SEQUENCE invoice_prefix_seq`,
  `ALTER TABLE organizations ADD COLUMN invoice_prefix text UNIQUE`,
  `UPDATE organizations AS org
     SET invoice_prefix = first.prefix
     FROM (
       SELECT DISTINCT ON (organization_id) organization_id, split_part(number, '-', 2) AS prefix
       FROM invoices
       ORDER BY organization_id, sequence
     ) AS first
     WHERE first.organization_id = org.id`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
