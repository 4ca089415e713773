import { sql, type Kysely } from 'kysely';

// Usage is placed and priced by the moment it happened (product-decisions §15, decision 022).
//
// - An organization's events by cycle and event time: a plan change applied at t moves the events
//   stamped from t on into the new cycle, and the spend cap's readings are the usage stamped before
//   each toggle; both read a range of this index instead of every event ever stored.
// - What a closed cycle whose spend cap was toggled has billed of its capped overage, per line (null:
//   the cap was not toggled in it). Usage that reaches such a cycle late is settled against it by the
//   cycle's own cap intervals, so it is billed by the setting in force when it happened, once.
const statements = [
  `CREATE INDEX usage_events_event_time ON usage_events (organization_id, cycle_start, occurred_at)`,
  `ALTER TABLE closed_cycles ADD COLUMN spend_cap_billed jsonb
     CHECK (spend_cap_billed IS NULL OR jsonb_typeof(spend_cap_billed) = 'object')`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
