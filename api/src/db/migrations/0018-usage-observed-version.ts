import { sql, type Kysely } from 'kysely';

// The subscription's billing_version (moved by every ingestion) that the organization's restriction
// lifecycle last saw its usage at (product-decisions §11). The billing job observes again the
// organizations whose usage moved since, catching up an observation ingestion could not make; null:
// never observed. The demo seed marks its world as observed: its restriction states are as written.
const statements = [`ALTER TABLE organizations ADD COLUMN usage_observed_version integer`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
