import { announcedSpendAlert, newSpendAlerts, type SpendAlertKey } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import {
  getSpendAlert,
  recordSpendAlerts,
  sentSpendAlerts,
} from '../../repositories/spend-alerts.ts';
import { enqueueBillingEmail } from '../notifications/enqueue-email.ts';
import { enqueueWebhookEvent } from '../webhooks/enqueue-webhook.ts';
import { CycleRowsCache, currentUpcomingInvoice } from '../subscription/cycle-data.ts';
import { newId } from '../../lib/ids.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Compares the organization's current cycle (the upcoming invoice's `amount_total` and
 * `amount_projected` as of `at`) with its budget, and records the alerts it has not recorded this
 * cycle (product decisions §12); of those, one is announced (the highest threshold, see
 * `announcedSpendAlert`) with a `spend_alert.triggered` email per billing recipient and a webhook
 * event, in the same transaction. A budget set already exceeded sends one message, not four. The alerts are keyed by the cycle's start, so a new cycle starts
 * clean and a second check (ingestion and the job racing, the job run again) sends nothing. Answers
 * the alerts this call sent.
 */
export async function checkSpendAlerts(
  db: Db,
  organizationId: string,
  at: Date,
  cache: CycleRowsCache = new CycleRowsCache(),
): Promise<SpendAlertKey[]> {
  const settings = await getSpendAlert(db, organizationId);
  if (!settings) return [];
  const invoice = await currentUpcomingInvoice(db, organizationId, at, cache);
  const cycleStart = new Date(invoice.billing_cycle_start);
  const cycleEnd = new Date(invoice.billing_cycle_end);
  const figures = {
    ...settings,
    spend: invoice.amount_total,
    projected: invoice.amount_projected,
  };
  const sent = await sentSpendAlerts(db, organizationId, cycleStart);
  const fresh = newSpendAlerts(
    figures,
    sent.map((row) => row.alert),
  );
  if (fresh.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    const recorded = await recordSpendAlerts(
      trx,
      organizationId,
      cycleStart,
      fresh.map((alert) => ({
        alert,
        budget: settings.budget,
        spend: figures.spend,
        projected: figures.projected,
      })),
      at,
      () => newId('sa'),
    );
    const alert = announcedSpendAlert(recorded);
    if (alert !== null) {
      await enqueueBillingEmail(
        trx,
        organizationId,
        `${organizationId}:${seconds(cycleStart)}:${alert}`,
        {
          kind: 'spend_alert.triggered',
          alert,
          budget: settings.budget,
          spendCents: figures.spend,
          projectedCents: figures.projected,
          cycleStart: seconds(cycleStart),
          cycleEnd: seconds(cycleEnd),
        },
      );
      await enqueueWebhookEvent(
        trx,
        organizationId,
        'spend_alert.triggered',
        {
          object: 'spend_alert',
          alert,
          budget_usd: settings.budget,
          spend_cents: figures.spend,
          projected_cents: figures.projected,
          cycle_start: seconds(cycleStart),
          cycle_end: seconds(cycleEnd),
        },
        `${seconds(cycleStart)}:${alert}`,
      );
    }
    return recorded;
  });
}
