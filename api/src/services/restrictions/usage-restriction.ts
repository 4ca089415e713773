import {
  exceededCappedMetrics,
  isSpendCapOn,
  summarizeUsage,
  type PlanId,
  type QuotaMetric,
} from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { getSubscription } from '../../repositories/subscriptions.ts';
import { loadCycleData, type CycleData } from '../subscription/cycle-data.ts';
import { lockOrganization, observeRestriction } from './restrictions.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The capped metrics above their quota in a cycle, as the usage page and the exceeded-limits banner
 * count them (`summarizeUsage`, then `exceededCappedMetrics`): empty unless the plan limits usage
 * (Free, or Pro with the spend cap on).
 */
export function exceededInCycle(
  planId: PlanId,
  usageBillingEnabled: boolean,
  data: CycleData,
): QuotaMetric[] {
  if (!isSpendCapOn(planId, usageBillingEnabled)) return [];
  const usages = summarizeUsage(planId, usageBillingEnabled, data.totals, data.perProject, {
    projectCount: data.projectCount,
    period: data.input.period,
  });
  return exceededCappedMetrics(usages);
}

/**
 * Sends the organization's current cycle so far to its restriction lifecycle (a `usage` observation at
 * `at`), when its plan limits usage. The cycle and its usage are read under the organization's row
 * lock, which a cycle's close also takes (after moving the subscription) to send its `cycle_closed`:
 * whichever comes second sees the other's result, so an observation of a cycle that has just closed
 * never lands after the close's. True when the restriction changed.
 */
export async function observeCurrentUsage(
  db: Db,
  organizationId: string,
  at: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await lockOrganization(trx, organizationId))) return false;
    const subscription = await getSubscription(trx, organizationId);
    const planId = subscription.plan_id;
    const usageBillingEnabled = subscription.usage_billing_enabled;
    if (!isSpendCapOn(planId, usageBillingEnabled)) return false;
    const data = await loadCycleData(
      trx,
      {
        organizationId,
        planId,
        usageBillingEnabled,
        periodStart: subscription.current_period_start,
        periodEnd: subscription.current_period_end,
      },
      at,
    );
    const exceeded = exceededInCycle(planId, usageBillingEnabled, data);
    const cycleStart = seconds(subscription.current_period_start);
    await trx
      .updateTable('organizations')
      .set({ usage_observed_version: subscription.billing_version })
      .where('id', '=', organizationId)
      .execute();
    return observeRestriction(trx, organizationId, { kind: 'usage', cycleStart, exceeded }, at);
  });
}

/**
 * What the job's pass observes: organizations whose plan limits usage (Free, Pro with the cap on), with
 * usage in their current cycle, and either in a grace period or past it (the pass moves them on with
 * time: a grace period's end passing) or with usage that moved since their last observation (one that
 * ingestion could not make). Read unlocked; each is observed under its own lock. Usage going above a
 * quota is observed where it arrives: the demo world, seeded as observed, keeps its states as written
 * (limits-co above its quota with no restriction) until new usage arrives.
 */
export async function usageRestrictionCandidates(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('subscriptions')
    .innerJoin('organizations', 'organizations.id', 'subscriptions.organization_id')
    .select(['organization_id', 'plan_id', 'usage_billing_enabled'])
    .where((eb) =>
      eb.or([
        eb('organizations.restriction_status', 'in', ['grace_period', 'grace_period_over']),
        eb('organizations.usage_observed_version', 'is', null),
        eb('organizations.usage_observed_version', '!=', eb.ref('subscriptions.billing_version')),
      ]),
    )
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('usage_cycle')
          .select(sql`1`.as('one'))
          .whereRef('usage_cycle.organization_id', '=', 'subscriptions.organization_id')
          .whereRef('usage_cycle.cycle_start', '=', 'subscriptions.current_period_start'),
      ),
    )
    .orderBy('organization_id')
    .execute();
  return rows
    .filter((row) => isSpendCapOn(row.plan_id, row.usage_billing_enabled))
    .map((row) => row.organization_id);
}
