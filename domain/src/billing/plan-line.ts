import type { Cents } from '../money/cents.ts';
import { formatCents } from '../money/format-cents.ts';
import * as Q from '../money/rational.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import { invoiceLine } from './invoice-line.ts';
import type { BillingWindow } from './invoice-input.ts';
import type { UpcomingInvoiceLine } from './schemas.ts';

/** The plan's monthly price for this window: the catalogue's, or the contract's for enterprise. */
export function planPriceCents(window: BillingWindow): Cents {
  return window.contract?.monthlyPriceCents ?? BILLING_PLANS[window.planId].monthlyPriceCents ?? 0;
}

/** "Pro Plan" at the full monthly price from the first day of the cycle (it is never prorated here). */
export function planLine(window: BillingWindow): UpcomingInvoiceLine {
  const plan = BILLING_PLANS[window.planId];
  const price = planPriceCents(window);
  const byContract = plan.monthlyPriceCents === null;
  return invoiceLine({
    description: `${plan.name} Plan`,
    amount: price,
    unitPriceDesc:
      byContract && !window.contract ? 'Custom (by contract)' : `${formatCents(price)} per month`,
    usageMetric: null,
    usageOriginal: null,
    // One month's fee at its price (enterprise: the contract's; none agreed yet: $0.00).
    quantity: Q.rational(1),
    unitPrice: Q.rational(price),
  });
}
