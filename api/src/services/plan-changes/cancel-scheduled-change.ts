import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { lockSubscription } from '../../repositories/subscriptions.ts';
import { recordAudit, type AuditContext } from '../../repositories/record-audit.ts';
import { NO_SCHEDULED_CHANGE_MESSAGE } from './change-rules.ts';

/** DELETE /billing/subscription/scheduled-change */
export async function cancelScheduledChange(
  db: Db,
  organizationId: string,
  audit: AuditContext,
  at: Date,
): Promise<{ message: string }> {
  await db.transaction().execute(async (trx) => {
    const subscription = await lockSubscription(trx, organizationId);
    const scheduled = subscription.scheduled_plan_id;
    if (!scheduled) throw new Failure('not_found', NO_SCHEDULED_CHANGE_MESSAGE);
    await trx
      .updateTable('subscriptions')
      .set({ scheduled_plan_id: null, scheduled_usage_billing_enabled: null, scheduled_at: null })
      .where('organization_id', '=', organizationId)
      .execute();
    await recordAudit(trx, audit, {
      organizationId,
      action: 'plan.scheduled_change_cancelled',
      target: { type: 'subscription', id: organizationId },
      before: { scheduled_plan: scheduled },
      after: { scheduled_plan: null },
      at,
    });
  });
  return { message: 'The scheduled plan change was cancelled' };
}
