import {
  cycleClosingMessage,
  planChangeRefusal,
  spendCapRefusal,
  type Tier,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import type { PlanChangesTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';
import { Failure, refusalFailure } from '../../lib/failure.ts';
import type { SubscriptionState } from '../../repositories/subscriptions.ts';
import type { PaymentDeps } from '../charges/payment-deps.ts';
import { closesAt } from '../../lib/close-grace.ts';

export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used for a different subscription change';
export const SUBSCRIPTION_MOVED_MESSAGE =
  'The subscription changed while this change was being prepared. Preview the change again.';
export const CHANGE_EXPIRED_MESSAGE =
  'This plan change expired before its payment was confirmed; nothing was changed. Start the change again.';
export const NO_PENDING_CHANGE_MESSAGE = 'No plan change is waiting for this payment';
export const NO_SCHEDULED_CHANGE_MESSAGE = 'No plan change is scheduled';

export type PlanChangeRow = Selectable<PlanChangesTable>;

export interface PlanChangeDeps extends PaymentDeps {
  projectUpdatesDisabled: boolean;
  /** Owners and administrators of the organization who have reached their free project limit. */
  membersAtFreeLimit: (db: Db, organizationId: string) => Promise<string[]>;
  /** BILLING_CLOSE_GRACE_MINUTES: how long after its end the billing job closes a cycle. */
  closeGraceMinutes: number;
}

export const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The subscription's cycle has ended and the billing job has not closed it yet (the late-usage grace,
 * decision 005): nothing can be priced against it any more, and the next cycle does not exist yet. A
 * change then is refused with 409 and when to try again (product-decisions §15), never a 5xx.
 */
export function refuseWhileCycleCloses(
  deps: PlanChangeDeps,
  subscription: SubscriptionState,
  now: Date,
): void {
  const end = subscription.current_period_end;
  if (now < end) return;
  const closes = closesAt(end, deps.closeGraceMinutes);
  throw new Failure('conflict', cycleClosingMessage(seconds(end), seconds(closes), seconds(now)));
}

export async function spendCapRefusalFor(
  deps: PlanChangeDeps,
  organizationId: string,
  subscription: SubscriptionState,
  capOn: boolean,
): Promise<void> {
  const organization = await deps.db
    .selectFrom('organizations')
    .select(['slug', 'managed_by'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const refusal = spendCapRefusal(
    {
      organization,
      subscription,
      projectUpdatesDisabled: deps.projectUpdatesDisabled,
      // The route admits only members with billing write on subscriptions.
      canUpdateSubscription: true,
    },
    capOn,
  );
  if (refusal) throw refusalFailure(refusal);
}

export async function refusalFor(
  deps: PlanChangeDeps,
  organizationId: string,
  subscription: SubscriptionState,
  tier: Tier,
): Promise<void> {
  const organization = await deps.db
    .selectFrom('organizations')
    .select(['slug', 'managed_by', 'has_oriole_project'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const refusal = planChangeRefusal(
    { organization, subscription, projectUpdatesDisabled: deps.projectUpdatesDisabled },
    tier,
  );
  if (refusal) throw refusalFailure(refusal);
}
