import { sql, type Kysely } from 'kysely';

// Product decisions §12: spend alerts. `spend_alert_budgets` holds an
// organization's monthly budget (whole US dollars) and its thresholds (percent, ascending).
// `spend_alerts_sent` records each alert sent: one per (organization, cycle start, alert), the alert
// being a threshold's percentage ('90') or 'projected'; the unique key makes a second check of the same
// cycle (the job and ingestion racing, the job run twice) send nothing, and a new cycle start clean.
// Each row keeps the figures it was sent with, so the alert's webhook event can be emitted from it.
const statements = [
  `CREATE TABLE spend_alert_budgets (
    organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    budget integer NOT NULL CHECK (budget BETWEEN 1 AND 1000000),
    thresholds integer[] NOT NULL CHECK (cardinality(thresholds) BETWEEN 1 AND 10),
    updated_at timestamptz NOT NULL
  )`,
  `CREATE TABLE spend_alerts_sent (
    id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    cycle_start timestamptz NOT NULL,
    alert text NOT NULL CHECK (alert = 'projected' OR alert ~ '^[0-9]{1,4}$'),
    budget integer NOT NULL,
    spend_cents bigint NOT NULL,
    projected_cents bigint NOT NULL,
    sent_at timestamptz NOT NULL,
    CONSTRAINT spend_alerts_sent_once UNIQUE (organization_id, cycle_start, alert)
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
