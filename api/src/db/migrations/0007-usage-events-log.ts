import { sql, type Kysely } from 'kysely';

// The raw usage events are an append-only log written in batches of thousands: a foreign-key check per row
// (two lookups and two row locks each) cost more than the insert itself. Ingestion resolves every event's
// project in the same request and refuses a batch naming an unknown one; the product never deletes
// projects or organizations, and a reset of the demo world removes their events itself. The roll-ups the
// engine reads (usage_daily, usage_cycle) keep their keys.
const statements = [
  `ALTER TABLE usage_events
     DROP CONSTRAINT IF EXISTS usage_events_organization_id_fkey,
     DROP CONSTRAINT IF EXISTS usage_events_project_id_fkey`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
