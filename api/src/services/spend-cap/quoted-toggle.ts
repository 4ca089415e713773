import type { SubscriptionUpdateBody } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import type { SubscriptionState } from '../../repositories/subscriptions.ts';
import { pricedAgainst, type FrozenChange } from '../plan-changes/price-change.ts';
import { findQuote } from '../plan-changes/quotes.ts';
import { priceSpendCapToggle } from './price-toggle.ts';

export const TOGGLE_QUOTE_STALE_MESSAGE =
  'The subscription changed while this change was being prepared. Preview the change again.';

/**
 * What a toggle of the spend cap is charged: the quote of the preview the customer saw (same tier,
 * same proration date, priced against the same plan, cycle and balance), to the cent, whatever usage
 * stamped before that moment arrived since (the cycle's close bills it, once); priced now when no
 * preview was sent back. A toggle since the quote makes it stale: the caller compares the count.
 */
export async function quotedOrPricedToggle(
  db: Db,
  organizationId: string,
  userId: string,
  subscription: SubscriptionState,
  body: SubscriptionUpdateBody,
  capOn: boolean,
  at: number,
): Promise<FrozenChange> {
  if (body.proration_date === undefined) {
    return priceSpendCapToggle(db, organizationId, subscription, capOn, at);
  }
  const quote = await findQuote(db, organizationId, userId, body.tier, at);
  if (!quote || quote.kind !== 'spend_cap' || !pricedAgainst(quote, subscription)) {
    throw new Failure('conflict', TOGGLE_QUOTE_STALE_MESSAGE);
  }
  return quote;
}
