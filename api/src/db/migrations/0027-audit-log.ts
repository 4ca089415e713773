import { sql, type Kysely } from 'kysely';

// Product decisions §13: the audit log of every billing change, written in the
// transaction that makes the change. Append-only: a trigger refuses UPDATE, DELETE and TRUNCATE, on the
// embedded database as on PostgreSQL, whoever runs the statement. The one exception is an organization's
// own deletion (the demo reset deletes and recreates the demo organizations): its entries go with it, by
// the foreign key's cascade, and the trigger lets a DELETE through only once the organization's row is
// gone, so no entry of a living organization can be deleted.
//
// A change finished later than its request (a payment settled by the provider's event, a card recorded by
// the setup's event) is attributed to whoever started it, from where: the request's audit context is kept
// on the charge, the plan change and the setup intent (`audit_context`, no secret in it).
const statements = [
  `CREATE TABLE audit_log (
    id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    actor_type text NOT NULL CHECK (actor_type IN ('user', 'token', 'operator', 'billing_job', 'pay_link')),
    actor_id text,
    actor_email text,
    action text NOT NULL,
    target_type text NOT NULL,
    target_id text,
    before jsonb,
    after jsonb,
    ip text,
    user_agent text,
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX audit_log_page ON audit_log (organization_id, created_at DESC, id DESC)`,
  `CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'DELETE' THEN
       IF NOT EXISTS (SELECT 1 FROM organizations WHERE id = OLD.organization_id) THEN
         RETURN OLD;
       END IF;
     END IF;
     RAISE EXCEPTION 'audit_log is append-only: % is refused', TG_OP
       USING ERRCODE = 'insufficient_privilege';
   END
   $$`,
  `CREATE TRIGGER audit_log_no_update_or_delete
     BEFORE UPDATE OR DELETE ON audit_log
     FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`,
  `CREATE TRIGGER audit_log_no_truncate
     BEFORE TRUNCATE ON audit_log
     FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`,
  `ALTER TABLE charges ADD COLUMN audit_context jsonb`,
  `ALTER TABLE plan_changes ADD COLUMN audit_context jsonb`,
  `ALTER TABLE setup_intents ADD COLUMN audit_context jsonb`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
