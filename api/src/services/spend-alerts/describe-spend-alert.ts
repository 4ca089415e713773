import {
  DEFAULT_SPEND_ALERT_THRESHOLDS,
  projectedToExceed,
  reachedThresholds,
  type SpendAlertState,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { getSpendAlert, sentSpendAlerts } from '../../repositories/spend-alerts.ts';
import { currentUpcomingInvoice, type CycleRowsCache } from '../subscription/cycle-data.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * `GET /billing/spend-alert`: the budget and thresholds (the default thresholds and a null budget when
 * none is set), the current cycle's spend and projection as the upcoming invoice prices them, the
 * thresholds they reach against the current budget (what the banner says), and the alerts sent.
 */
export async function describeSpendAlert(
  db: Db,
  organizationId: string,
  at: Date,
  cache: CycleRowsCache,
): Promise<SpendAlertState> {
  const [settings, invoice] = await Promise.all([
    getSpendAlert(db, organizationId),
    currentUpcomingInvoice(db, organizationId, at, cache),
  ]);
  const cycleStart = new Date(invoice.billing_cycle_start);
  const sent = await sentSpendAlerts(db, organizationId, cycleStart);
  const figures = settings && {
    ...settings,
    spend: invoice.amount_total,
    projected: invoice.amount_projected,
  };
  return {
    budget: settings?.budget ?? null,
    thresholds: settings?.thresholds ?? [...DEFAULT_SPEND_ALERT_THRESHOLDS],
    cycle_start: seconds(cycleStart),
    cycle_end: seconds(new Date(invoice.billing_cycle_end)),
    spend: invoice.amount_total,
    projected: invoice.amount_projected,
    reached: figures ? reachedThresholds(figures) : [],
    projected_to_exceed: figures ? projectedToExceed(figures) : false,
    alerts: sent.map((row) => ({
      alert: row.alert,
      budget: row.budget,
      spend: row.spend,
      projected: row.projected,
      at: seconds(row.at),
    })),
  };
}
