import { type SubscriptionPreview, type Tier } from '@meterline/domain';
import { getSubscription } from '../../repositories/subscriptions.ts';
import { priceChange } from './price-change.ts';
import { saveQuote } from './quotes.ts';
import {
  refusalFor,
  refuseWhileCycleCloses,
  seconds,
  type PlanChangeDeps,
} from './change-rules.ts';

/** POST /billing/subscription/preview: the change priced now; its proration_date fixes the charge. */
export async function previewChange(
  deps: PlanChangeDeps,
  organizationId: string,
  userId: string,
  tier: Tier,
): Promise<SubscriptionPreview> {
  const subscription = await getSubscription(deps.db, organizationId);
  await refusalFor(deps, organizationId, subscription, tier);
  const now = deps.clock.now();
  refuseWhileCycleCloses(deps, subscription, now);
  const priced = await priceChange(deps.db, organizationId, subscription, tier, seconds(now));
  await saveQuote(deps.db, organizationId, userId, priced, now);
  return priced.preview;
}
