import type { SubscriptionConfirmResponse } from '@meterline/domain';
import { Failure } from '../../lib/failure.ts';
import { settleCharge } from '../charges/settle-charge.ts';
import {
  CHANGE_EXPIRED_MESSAGE,
  NO_PENDING_CHANGE_MESSAGE,
  type PlanChangeDeps,
} from './change-rules.ts';
import { chargeOf, successMessage } from './change-answer.ts';

/**
 * POST /billing/subscription/confirm: the browser passed 3-D Secure; the provider's record settles the
 * charge (exactly once, whoever comes first: this call or the provider's event), which applies the
 * change. 200 applied (or already), 202 still processing, 402 failed, 409 expired.
 */
export async function confirmChange(
  deps: PlanChangeDeps,
  organizationId: string,
  paymentIntentId: string,
): Promise<{ status: 200 | 202; body: SubscriptionConfirmResponse }> {
  const charge = await deps.db
    .selectFrom('charges')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('purpose', '=', 'plan_change')
    .where('provider_ref', '=', paymentIntentId)
    .executeTakeFirst();
  if (!charge?.plan_change_id) throw new Failure('not_found', NO_PENDING_CHANGE_MESSAGE);
  if (charge.status === 'pending' || charge.status === 'requires_action') {
    const state = await deps.gateway.retrievePaymentIntent(paymentIntentId);
    await settleCharge(deps, charge.id, state, deps.clock.now());
  }
  const change = await deps.db
    .selectFrom('plan_changes')
    .selectAll()
    .where('id', '=', charge.plan_change_id)
    .executeTakeFirstOrThrow();
  const settled = await chargeOf(deps.db, change.id);
  switch (change.status) {
    case 'applied':
      return {
        status: 200,
        body: { status: 'applied', message: successMessage(change) },
      };
    case 'pending':
      return {
        status: 202,
        body: {
          status: 'processing',
          message: 'The payment is not confirmed yet: the plan changes as soon as it is.',
        },
      };
    case 'expired':
      throw new Failure('conflict', CHANGE_EXPIRED_MESSAGE);
    case 'failed':
      if (settled?.status === 'succeeded')
        throw new Failure('conflict', settled.refund_reason ?? CHANGE_EXPIRED_MESSAGE);
      throw new Failure(
        'payment_failed',
        settled?.failure_message ?? change.failure_message ?? 'Payment failed.',
      );
  }
}
