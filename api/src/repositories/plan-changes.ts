import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { PlanChangesTable } from '../db/schema.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The moment of the spend cap's last toggle in the cycle (0 when none). */
export async function lastToggleAt(
  db: Db,
  organizationId: string,
  cycleStart: Date,
): Promise<number> {
  const row = await db
    .selectFrom('spend_cap_toggles')
    .select('at')
    .where('organization_id', '=', organizationId)
    .where('cycle_start', '=', cycleStart)
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? seconds(row.at) : 0;
}

/** How often the spend cap was toggled in the cycle: a change priced before a toggle is stale. */
export async function togglesInCycle(
  db: Db,
  organizationId: string,
  cycleStart: Date,
): Promise<number> {
  const rows = await db
    .selectFrom('spend_cap_toggles')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('cycle_start', '=', cycleStart)
    .execute();
  return rows.length;
}

export function findChangeByKey(
  db: Db,
  key: string,
): Promise<Selectable<PlanChangesTable> | undefined> {
  return db
    .selectFrom('plan_changes')
    .selectAll()
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}
