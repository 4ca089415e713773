import { sql, type Kysely } from 'kysely';

// The quote a plan-change preview showed (product-decisions §9, "the preview is the charge"): the change
// sent back with the preview's proration date is charged this, to the cent, even if usage stamped before
// that moment arrived in between (that usage is billed by the next close, as late usage). A quote lives
// as long as its proration date may be sent back (10 minutes); the next preview of the organization
// deletes the ones past that.
const statements = [
  `CREATE TABLE plan_change_quotes (
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    tier text NOT NULL,
    proration_date timestamptz NOT NULL,
    priced jsonb NOT NULL CHECK (jsonb_typeof(priced) = 'object'),
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, user_id, tier, proration_date)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
