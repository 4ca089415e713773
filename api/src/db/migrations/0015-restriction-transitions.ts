import { sql, type Kysely } from 'kysely';

// Every change of an organization's restriction state (product-decisions §11): when, from what, to
// what, why, and the violations after it. Written in the transaction that changes the state, under the
// organization's row lock, so a transition is recorded exactly when it happens and never twice.
const statements = [
  `CREATE TABLE restriction_transitions (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    at timestamptz NOT NULL,
    from_status text CHECK (from_status IN ('grace_period', 'grace_period_over', 'restricted')),
    to_status text CHECK (to_status IN ('grace_period', 'grace_period_over', 'restricted')),
    reason text NOT NULL,
    metrics jsonb NOT NULL CHECK (jsonb_typeof(metrics) = 'array'),
    violations jsonb NOT NULL CHECK (jsonb_typeof(violations) = 'array'),
    grace_period_end timestamptz
  )`,
  `CREATE INDEX restriction_transitions_organization ON restriction_transitions (organization_id, at DESC)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
