import { enqueueBillingEmail } from '../notifications/enqueue-email.ts';
import {
  BILLING_PLANS,
  formatInvoiceDate,
  planIdOfTier,
  usageBillingEnabledForTier,
  type SubscriptionUpdateResponse,
  type Tier,
} from '@meterline/domain';
import { lockSubscription } from '../../repositories/subscriptions.ts';
import { recordAudit, type AuditContext } from '../../repositories/record-audit.ts';
import type { PlanChangeDeps } from './change-rules.ts';

/** A hosting partner's downgrade: stored for the cycle's end, applied by the billing job when it closes. */
export async function scheduleChange(
  deps: PlanChangeDeps,
  organizationId: string,
  tier: Tier,
  audit: AuditContext,
): Promise<SubscriptionUpdateResponse> {
  const target = planIdOfTier(tier);
  const end = await deps.db.transaction().execute(async (trx) => {
    const subscription = await lockSubscription(trx, organizationId);
    await recordAudit(trx, audit, {
      organizationId,
      action: 'plan.change_scheduled',
      target: { type: 'subscription', id: organizationId },
      before: { plan: subscription.plan_id, scheduled_plan: subscription.scheduled_plan_id },
      after: {
        scheduled_plan: target,
        scheduled_at: Math.floor(subscription.current_period_end.getTime() / 1000),
      },
      at: deps.clock.now(),
    });
    await trx
      .updateTable('subscriptions')
      .set({
        scheduled_plan_id: target,
        scheduled_usage_billing_enabled: usageBillingEnabledForTier(tier),
        scheduled_at: subscription.current_period_end,
      })
      .where('organization_id', '=', organizationId)
      .execute();
    const at = subscription.current_period_end;
    await enqueueBillingEmail(
      trx,
      organizationId,
      `${organizationId}:${target}:${at.toISOString()}`,
      {
        kind: 'plan.scheduled',
        toPlan: BILLING_PLANS[target].name,
        at: Math.floor(at.getTime() / 1000),
      },
    );
    return at;
  });
  return {
    status: 'scheduled',
    pending_payment_intent_secret: null,
    payment_intent_id: null,
    message: `The change to the ${BILLING_PLANS[target].name} plan takes effect at the end of the billing cycle, on ${formatInvoiceDate(Math.floor(end.getTime() / 1000))}.`,
  };
}
