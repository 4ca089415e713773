import { sql, type Kysely } from 'kysely';

// Every charge settles exactly once, and every payment taken is accounted for:
// - attempted_at: the wall-clock time the latest provider call for the charge started, written by the
//   process that makes the call, never the billing run's logical time. With the provider's own record
//   (looked up by the charge's key) it decides whether a charge is still in flight.
// - action_expires_at: a payment waiting for 3-D Secure stops blocking collection when it expires.
// - refund_*: a success for an invoice that no longer needed paying (paid by another charge, forgiven) is
//   refunded through the provider, and the charge row says so.
// - billing_job_failures: one row per item of the billing job (an organization's cycle, an invoice's
//   collection, a charge's reconciliation) that failed, with the reason and when it may be tried again,
//   so one bad item never stops the job for every other organization.
const statements = [
  `ALTER TABLE charges ADD COLUMN attempted_at timestamptz`,
  `ALTER TABLE charges ADD COLUMN action_expires_at timestamptz`,
  `ALTER TABLE charges ADD COLUMN refund_status text CHECK (refund_status IN ('pending', 'succeeded'))`,
  `ALTER TABLE charges ADD COLUMN refund_reason text`,
  `ALTER TABLE charges ADD COLUMN refund_ref text`,
  `ALTER TABLE charges ADD COLUMN refunded_at timestamptz`,
  `ALTER TABLE charges ADD CONSTRAINT charges_refund_only_succeeded
     CHECK (refund_status IS NULL OR status = 'succeeded')`,
  `UPDATE charges SET attempted_at = updated_at WHERE status = 'pending'`,
  `UPDATE charges SET action_expires_at = updated_at + interval '1 hour'
     WHERE status = 'requires_action'`,
  `CREATE INDEX charges_open_idx ON charges(invoice_id) WHERE status IN ('pending', 'requires_action')`,
  `CREATE INDEX charges_refund_pending_idx ON charges(id) WHERE refund_status = 'pending'`,
  `ALTER TABLE simulator_payment_intents ADD COLUMN refunded_cents bigint NOT NULL DEFAULT 0`,
  `CREATE TABLE simulator_refunds (
    id text PRIMARY KEY,
    payment_intent_id text NOT NULL,
    amount_cents bigint NOT NULL,
    reason text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  // A built-in captcha token is spent by one request: its repeat with the same idempotency key (a
  // double submit) passes again, any other request does not.
  `ALTER TABLE captcha_tokens ADD COLUMN spent_by text`,
  `CREATE TABLE billing_job_failures (
    kind text NOT NULL,
    item_id text NOT NULL,
    organization_id uuid,
    failures integer NOT NULL,
    last_error text NOT NULL,
    first_failed_at timestamptz NOT NULL,
    last_failed_at timestamptz NOT NULL,
    retry_after timestamptz NOT NULL,
    PRIMARY KEY (kind, item_id)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
