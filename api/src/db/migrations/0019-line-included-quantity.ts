import { sql, type Kysely } from 'kysely';

// An invoice line keeps, of its usage, what the plan included: with usage_original, quantity
// and unit_price a finalized line reads "309.85 GB used · 250 GB included · 59.85 GB billed × $0.09".
// Lines finalized before it was kept have none (null), and are shown as they were.
const statements = [`ALTER TABLE invoice_lines ADD COLUMN included_quantity numeric`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
