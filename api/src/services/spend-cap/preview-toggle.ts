import { tierFor, type SpendCapPreview } from '@meterline/domain';
import { getDefaultPaymentMethod } from '../../repositories/payment-methods.ts';
import { getSubscription } from '../../repositories/subscriptions.ts';
import {
  refuseWhileCycleCloses,
  spendCapRefusalFor,
  type PlanChangeDeps,
} from '../plan-changes/change-rules.ts';
import { saveQuote } from '../plan-changes/quotes.ts';
import { priceSpendCapToggle } from './price-toggle.ts';

/**
 * POST /billing/spend-cap/preview: turning the cap on (or off) priced now, exactly as the toggle is
 * priced, and kept as the member's quote: `PUT /billing/subscription` with the tier and this
 * `proration_date` (at most 10 minutes old) is charged `charge_today` to the cent. Refused by the
 * toggle's own rules (409 off Pro, for the setting already in force, under the global switch).
 */
export async function previewSpendCapToggle(
  deps: PlanChangeDeps,
  organizationId: string,
  userId: string,
  capOn: boolean,
): Promise<SpendCapPreview> {
  const subscription = await getSubscription(deps.db, organizationId);
  await spendCapRefusalFor(deps, organizationId, subscription, capOn);
  const now = deps.clock.now();
  refuseWhileCycleCloses(deps, subscription, now);
  const at = Math.floor(now.getTime() / 1000);
  const priced = await priceSpendCapToggle(deps.db, organizationId, subscription, capOn, at);
  await saveQuote(deps.db, organizationId, userId, priced, now);
  const card = await getDefaultPaymentMethod(deps.db, organizationId);
  const periodStart = Math.floor(priced.cycle.start.getTime() / 1000);
  return {
    spend_cap: capOn,
    tier: tierFor('pro', !capOn),
    lines: priced.recordLines.map((line) => ({
      description: line.description,
      total_price: line.amount,
      period_start: periodStart,
      period_end: at,
    })),
    total: priced.totalCents,
    credit_applied: priced.creditAppliedCents,
    charge_today: priced.chargeTodayCents,
    balance_after: priced.balanceCents - priced.creditAppliedCents,
    proration_date: at,
    billed_via_partner: priced.billedViaPartner,
    payment_method: card ? { id: card.id, brand: card.brand, last4: card.last4 } : null,
  };
}
