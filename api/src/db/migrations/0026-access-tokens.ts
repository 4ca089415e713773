import { sql, type Kysely } from 'kysely';

// Product decisions §13: organization access tokens for the billing read API. Only the
// SHA-256 of a token is stored (`token_hash`, unique); `prefix` is its first characters, to tell tokens
// apart in a list. A revoked token keeps its row (`revoked_at`) so its uses stay explained. The guard
// authenticates, rate limits and records the use in one UPDATE of the row: `window_started_at` and
// `window_requests` count the requests of the current minute, atomically under concurrent requests and
// across processes.
const statements = [
  `CREATE TABLE access_tokens (
    id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    name text NOT NULL,
    scope text NOT NULL CHECK (scope IN ('billing:read')),
    token_hash text NOT NULL UNIQUE,
    prefix text NOT NULL,
    created_by uuid REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL,
    expires_at timestamptz,
    revoked_at timestamptz,
    last_used_at timestamptz,
    window_started_at timestamptz,
    window_requests integer NOT NULL DEFAULT 0
  )`,
  `CREATE INDEX access_tokens_organization ON access_tokens (organization_id, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
