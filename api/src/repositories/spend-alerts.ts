import type { SpendAlert, SpendAlertKey } from '@meterline/domain';
import type { Db } from '../db/database.ts';

/** An organization's budget and thresholds, or null when none is set. */
export async function getSpendAlert(db: Db, organizationId: string): Promise<SpendAlert | null> {
  const row = await db
    .selectFrom('spend_alert_budgets')
    .select(['budget', 'thresholds'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row ? { budget: row.budget, thresholds: [...row.thresholds].sort((a, b) => a - b) } : null;
}

export async function saveSpendAlert(
  db: Db,
  organizationId: string,
  alert: SpendAlert,
  at: Date,
): Promise<void> {
  const values = { budget: alert.budget, thresholds: alert.thresholds, updated_at: at };
  await db
    .insertInto('spend_alert_budgets')
    .values({ organization_id: organizationId, ...values })
    .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
    .execute();
}

/** True when there was a budget to remove. */
export async function deleteSpendAlert(db: Db, organizationId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('spend_alert_budgets')
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The organizations with a budget, optionally among some. */
export async function organizationsWithSpendAlert(
  db: Db,
  among?: readonly string[],
): Promise<string[]> {
  if (among && among.length === 0) return [];
  let select = db.selectFrom('spend_alert_budgets').select('organization_id');
  if (among) select = select.where('organization_id', 'in', among);
  const rows = await select.orderBy('organization_id').execute();
  return rows.map((row) => row.organization_id);
}

export interface SentSpendAlertRow {
  alert: SpendAlertKey;
  budget: number;
  spend: number;
  projected: number;
  at: Date;
}

const keyOf = (alert: string): SpendAlertKey => (alert === 'projected' ? alert : Number(alert));

/** Alerts sent at one moment: the projection's first, then the thresholds ascending. */
const alertOrder = (key: SpendAlertKey) => (key === 'projected' ? -1 : key);

/** The alerts sent in a cycle, oldest first. */
export async function sentSpendAlerts(
  db: Db,
  organizationId: string,
  cycleStart: Date,
): Promise<SentSpendAlertRow[]> {
  const rows = await db
    .selectFrom('spend_alerts_sent')
    .select(['alert', 'budget', 'spend_cents', 'projected_cents', 'sent_at'])
    .where('organization_id', '=', organizationId)
    .where('cycle_start', '=', cycleStart)
    .execute();
  return rows
    .map((row) => ({
      alert: keyOf(row.alert),
      budget: row.budget,
      spend: row.spend_cents,
      projected: row.projected_cents,
      at: row.sent_at,
    }))
    .sort((a, b) => a.at.getTime() - b.at.getTime() || alertOrder(a.alert) - alertOrder(b.alert));
}

/**
 * Records alerts of a cycle; the ones already recorded (another check got there first) are skipped.
 * Answers the alerts this call recorded: only those are sent.
 */
export async function recordSpendAlerts(
  db: Db,
  organizationId: string,
  cycleStart: Date,
  alerts: readonly Omit<SentSpendAlertRow, 'at'>[],
  at: Date,
  newId: () => string,
): Promise<SpendAlertKey[]> {
  if (alerts.length === 0) return [];
  const rows = await db
    .insertInto('spend_alerts_sent')
    .values(
      alerts.map((alert) => ({
        id: newId(),
        organization_id: organizationId,
        cycle_start: cycleStart,
        alert: String(alert.alert),
        budget: alert.budget,
        spend_cents: alert.spend,
        projected_cents: alert.projected,
        sent_at: at,
      })),
    )
    .onConflict((oc) => oc.columns(['organization_id', 'cycle_start', 'alert']).doNothing())
    .returning('alert')
    .execute();
  return rows.map((row) => keyOf(row.alert));
}
