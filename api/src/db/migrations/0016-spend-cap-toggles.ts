import { sql, type Kysely } from 'kysely';

// The spend cap's toggles (product-decisions §10). A toggle moves no cycle: it is recorded with the
// cycle it happened in, the overage reading at that moment (each capped line's cap-off amount for the
// usage so far) and, for turning the cap on, what its invoice billed per line. The engine bills each
// line's increase over the cycle's cap-off intervals from these, never twice.
//
// A toggle goes through plan_changes (kind 'spend_cap') like a plan change: priced, frozen with its
// charge when turning on bills overage, and applied in the transaction that records the payment.
const statements = [
  `ALTER TABLE plan_changes ADD COLUMN kind text NOT NULL DEFAULT 'plan'
     CHECK (kind IN ('plan', 'spend_cap'))`,
  `ALTER TABLE plan_changes ADD COLUMN spend_cap_reading jsonb
     CHECK (spend_cap_reading IS NULL OR jsonb_typeof(spend_cap_reading) = 'object')`,
  `ALTER TABLE plan_changes ADD COLUMN spend_cap_billed jsonb
     CHECK (spend_cap_billed IS NULL OR jsonb_typeof(spend_cap_billed) = 'object')`,
  `CREATE TABLE spend_cap_toggles (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    cycle_start timestamptz NOT NULL,
    at timestamptz NOT NULL,
    cap_on boolean NOT NULL,
    reading jsonb NOT NULL CHECK (jsonb_typeof(reading) = 'object'),
    billed jsonb NOT NULL CHECK (jsonb_typeof(billed) = 'object'),
    plan_change_id text REFERENCES plan_changes(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  // A cycle is invoiced once (its close, or the plan change that ends it); the spend cap's turn-on
  // invoices bill overage inside a cycle, beside its own invoice.
  `ALTER TABLE invoices ADD COLUMN kind text NOT NULL DEFAULT 'cycle' CHECK (kind IN ('cycle', 'spend_cap'))`,
  `ALTER TABLE invoices DROP CONSTRAINT invoices_organization_id_period_start_key`,
  `CREATE UNIQUE INDEX invoices_cycle_once ON invoices (organization_id, period_start) WHERE kind = 'cycle'`,
  `CREATE INDEX spend_cap_toggles_cycle ON spend_cap_toggles (organization_id, cycle_start, at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
