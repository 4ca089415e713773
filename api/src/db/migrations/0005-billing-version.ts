import { sql, type Kysely } from 'kysely';

// A counter of everything that changes what a cycle costs (usage ingested, add-ons, compute): readers may
// keep what they read for a version and reuse it until the counter moves.
const statements = [
  `ALTER TABLE subscriptions ADD COLUMN billing_version bigint NOT NULL DEFAULT 0`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
