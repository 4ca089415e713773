import { sql, type Kysely } from 'kysely';

// A rotated webhook secret keeps signing for 24 hours beside the new one; the card provider's events
// beyond payments: refunds made in its dashboard, disputes, failed setups, cards updated by the network.
const statements = [
  `ALTER TABLE webhook_endpoints
     ADD COLUMN previous_secret text,
     ADD COLUMN previous_secret_expires_at timestamptz,
     ADD CONSTRAINT webhook_endpoints_previous_secret_expiry
       CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL))`,
  // What the provider says was refunded of the charge, all refunds together (its own and ours).
  `ALTER TABLE charges
     ADD COLUMN amount_refunded_cents integer NOT NULL DEFAULT 0 CHECK (amount_refunded_cents >= 0)`,
  // The provider's time of the latest card update applied: an older event arriving late changes nothing.
  `ALTER TABLE payment_methods ADD COLUMN provider_updated_at timestamptz`,
  `ALTER TABLE setup_intents DROP CONSTRAINT setup_intents_status_check`,
  `ALTER TABLE setup_intents
     ADD CONSTRAINT setup_intents_status_check CHECK (status IN ('created', 'recorded', 'failed')),
     ADD COLUMN failure_message text`,
  `ALTER TABLE audit_log DROP CONSTRAINT audit_log_actor_type_check`,
  `ALTER TABLE audit_log ADD CONSTRAINT audit_log_actor_type_check
     CHECK (actor_type IN ('user', 'token', 'operator', 'billing_job', 'pay_link', 'provider'))`,
  `CREATE TABLE charge_disputes (
    id text PRIMARY KEY,
    provider text NOT NULL,
    provider_dispute_id text NOT NULL,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    charge_id text NOT NULL REFERENCES charges(id) ON DELETE CASCADE,
    invoice_id text REFERENCES invoices(id) ON DELETE CASCADE,
    amount_cents integer NOT NULL CHECK (amount_cents >= 0),
    reason text NOT NULL,
    status text NOT NULL,
    opened_at timestamptz NOT NULL,
    closed_at timestamptz,
    provider_updated_at timestamptz NOT NULL,
    CONSTRAINT charge_disputes_once UNIQUE (provider, provider_dispute_id)
  )`,
  `CREATE INDEX charge_disputes_invoice ON charge_disputes (invoice_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
