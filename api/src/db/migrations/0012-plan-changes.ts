import { sql, type Kysely } from 'kysely';

// A plan change (product-decisions §9). An immediate change is priced when it is asked for (at the
// preview's proration date) and frozen here: the change invoice's lines, what the balance pays, what the
// card is charged, and the cycle's usage rows it bills. Nothing about the subscription changes until the
// charge succeeds: the change is applied in the transaction that records the payment (settle-charge), or
// at once when nothing is due. At most one change of an organization is pending at a time.
const statements = [
  `CREATE TABLE plan_changes (
    id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    idempotency_key text NOT NULL UNIQUE,
    request_fingerprint text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'applied', 'failed', 'expired')),
    tier text NOT NULL,
    from_plan text NOT NULL,
    from_usage_billing_enabled boolean NOT NULL,
    to_plan text NOT NULL,
    to_usage_billing_enabled boolean NOT NULL,
    changed_at timestamptz NOT NULL,
    cycle_start timestamptz NOT NULL,
    cycle_end timestamptz NOT NULL,
    lines jsonb NOT NULL,
    total_cents bigint NOT NULL,
    credit_applied_cents bigint NOT NULL CHECK (credit_applied_cents >= 0),
    charge_today_cents bigint NOT NULL CHECK (charge_today_cents >= 0),
    billed_usage jsonb NOT NULL,
    projects jsonb NOT NULL,
    payment_method_id text,
    profile_update jsonb,
    billed_via_partner boolean NOT NULL,
    invoice_id text REFERENCES invoices(id),
    failure_message text,
    created_by uuid,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    resolved_at timestamptz
  )`,
  `CREATE UNIQUE INDEX plan_changes_one_pending ON plan_changes (organization_id)
     WHERE status = 'pending'`,
  `CREATE INDEX plan_changes_pending_expiry ON plan_changes (expires_at) WHERE status = 'pending'`,
  `ALTER TABLE charges DROP CONSTRAINT charges_purpose_check`,
  `ALTER TABLE charges ADD CONSTRAINT charges_purpose_check
     CHECK (purpose IN ('invoice', 'top_up', 'plan_change'))`,
  `ALTER TABLE charges ADD COLUMN plan_change_id text REFERENCES plan_changes(id)`,
  `ALTER TABLE charges ADD CONSTRAINT charges_plan_change_purpose
     CHECK ((purpose = 'plan_change') = (plan_change_id IS NOT NULL))`,
  // A hosting-partner downgrade waits for the cycle's end; the billing job applies it when it closes.
  `ALTER TABLE subscriptions
     ADD COLUMN scheduled_plan_id text CHECK (scheduled_plan_id IN ('free', 'pro', 'team')),
     ADD COLUMN scheduled_usage_billing_enabled boolean,
     ADD COLUMN scheduled_at timestamptz`,
  `ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_scheduled_whole
     CHECK ((scheduled_plan_id IS NULL) = (scheduled_at IS NULL)
        AND (scheduled_plan_id IS NULL) = (scheduled_usage_billing_enabled IS NULL))`,
  // A change invoice may total less than nothing (a downgrade's unused time worth more than the new
  // fee): nothing is due and the difference goes to the credit balance.
  `ALTER TABLE invoices DROP CONSTRAINT invoices_check`,
  `ALTER TABLE invoices ADD CONSTRAINT invoices_amount_due
     CHECK (amount_due_cents = greatest(subtotal_cents - credit_applied_cents, 0))`,
  // Billed by the partner: recorded here, never collected here.
  `ALTER TABLE invoices ADD COLUMN billed_via_partner boolean NOT NULL DEFAULT false`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
