import { sql, type Kysely } from 'kysely';

// Product-decisions §15: a cycle a plan change cut short keeps the end it was scheduled
// to have, so that its late usage is priced by the same fraction of a month as its change invoice (sizes in
// GB-months, its share of the compute credits). Cycles closed before it was kept have none (null): priced
// as a whole month, as they were billed.
const statements = [`ALTER TABLE closed_cycles ADD COLUMN scheduled_end timestamptz`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
