import { sql, type Kysely } from 'kysely';

// Security limits shared by every process on one database: a key's count in its current fixed window
// (sign-in failures, wrong operator keys, the routes' request ceilings). A hit is one upsert that starts a
// new window once the old one has expired; rows whose window has passed are deleted now and then.
// UNLOGGED: a count needs no durability (a crash forgets the counts, as a restart of the in-memory counts
// did), and a hit then waits for no WAL flush.
const statements = [
  `CREATE UNLOGGED TABLE rate_limit_windows (
    key text PRIMARY KEY,
    hits integer NOT NULL CHECK (hits >= 0),
    window_started_at timestamptz NOT NULL,
    expires_at timestamptz NOT NULL
  )`,
  `CREATE INDEX rate_limit_windows_expiry ON rate_limit_windows (expires_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
