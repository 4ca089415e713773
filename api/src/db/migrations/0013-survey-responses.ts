import { sql, type Kysely } from 'kysely';

// The exit and upgrade surveys (product-decisions §9), kept for the product team and exported by the
// operator CLI. An answer outlives its user and organization (the demo reset deletes organizations): the
// references are cleared then, and the slug the answer was about stays.
const statements = [
  `CREATE TABLE survey_responses (
    id text PRIMARY KEY,
    kind text NOT NULL CHECK (kind IN ('downgrade', 'upgrade')),
    user_id uuid REFERENCES users(id) ON DELETE SET NULL,
    organization_id uuid REFERENCES organizations(id) ON DELETE SET NULL,
    organization_slug text,
    project_ref text,
    exit_action text CHECK (exit_action IN ('downgrade', 'delete')),
    prev_plan text CHECK (prev_plan IN ('free', 'pro', 'team', 'enterprise')),
    current_plan text CHECK (current_plan IN ('free', 'pro', 'team', 'enterprise')),
    reasons jsonb NOT NULL CHECK (jsonb_typeof(reasons) = 'array'),
    additional_feedback text,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((kind = 'downgrade') = (exit_action IS NOT NULL)),
    CHECK ((kind = 'upgrade') = (prev_plan IS NOT NULL AND current_plan IS NOT NULL))
  )`,
  `CREATE INDEX survey_responses_created_at ON survey_responses (created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
