import {
  BILLING_PLANS,
  spendCapToggledMessage,
  type SubscriptionUpdateResponse,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import type { ChargeRow } from '../../repositories/charges.ts';
import { resumeCharge, type ChargeProgress } from '../charges/charge-progress.ts';
import {
  CHANGE_EXPIRED_MESSAGE,
  IDEMPOTENCY_KEY_REUSED,
  type PlanChangeDeps,
  type PlanChangeRow,
} from './change-rules.ts';

/** What a change that went through answers: the plan it moved to, or the spend cap's new setting. */
export interface ChangeOutcome {
  kind: 'plan' | 'spend_cap';
  to_plan: keyof typeof BILLING_PLANS;
  to_usage_billing_enabled: boolean;
}

export function successMessage(outcome: ChangeOutcome): string {
  return outcome.kind === 'spend_cap'
    ? spendCapToggledMessage(!outcome.to_usage_billing_enabled)
    : `Subscription changed to the ${BILLING_PLANS[outcome.to_plan].name} plan`;
}

export function applied(outcome: ChangeOutcome): SubscriptionUpdateResponse {
  return {
    status: 'applied',
    pending_payment_intent_secret: null,
    payment_intent_id: null,
    message: successMessage(outcome),
  };
}

export async function answer(
  deps: PlanChangeDeps,
  chargeId: string,
  outcome: ChangeOutcome,
  progress: ChargeProgress,
): Promise<SubscriptionUpdateResponse> {
  if (progress.status === 'succeeded') return applied(outcome);
  const charge = await deps.db
    .selectFrom('charges')
    .select('provider_ref')
    .where('id', '=', chargeId)
    .executeTakeFirstOrThrow();
  if (progress.status === 'processing') {
    return {
      status: 'processing',
      pending_payment_intent_secret: null,
      payment_intent_id: charge.provider_ref,
      message: 'The payment is processing: the plan changes as soon as it succeeds.',
    };
  }
  return {
    status: 'requires_action',
    pending_payment_intent_secret: progress.clientSecret,
    payment_intent_id: charge.provider_ref,
    message: 'The card needs authentication: confirm the payment to change the plan.',
  };
}

export async function resume(
  deps: PlanChangeDeps,
  change: PlanChangeRow,
  fingerprint: string,
): Promise<SubscriptionUpdateResponse> {
  if (change.request_fingerprint !== fingerprint)
    throw new Failure('conflict', IDEMPOTENCY_KEY_REUSED);
  if (change.status === 'applied') return applied(change);
  const charge = await chargeOf(deps.db, change.id);
  if (change.status === 'expired') throw new Failure('conflict', CHANGE_EXPIRED_MESSAGE);
  if (change.status === 'failed') {
    throw new Failure(
      'payment_failed',
      charge?.failure_message ?? change.failure_message ?? 'Payment failed.',
    );
  }
  if (!charge) throw new Error(`Plan change ${change.id} has no charge`);
  const progress = await resumeCharge(deps, charge);
  return answer(deps, charge.id, change, progress);
}

export function chargeOf(db: Db, planChangeId: string): Promise<ChargeRow | undefined> {
  return db
    .selectFrom('charges')
    .selectAll()
    .where('plan_change_id', '=', planChangeId)
    .executeTakeFirst();
}
