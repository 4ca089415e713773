import type { Cents } from '../money/cents.ts';
import { toCents } from '../money/cents.ts';

/** How an invoice or a preview names what a negative total adds to the credit balance. */
export const CREDITED_TO_BALANCE_LABEL = 'Added to your credit balance';

/**
 * What a change invoice adds to the organization's credit balance (product-decisions §9): a total below
 * zero (a downgrade's unused time worth more than the new fee and the usage) is owed to the customer and
 * kept as credit for future invoices, never refunded to a card, so the invoice's amount due is $0.00
 * and this is where the difference goes. Nothing for a positive total, nor when a partner bills the
 * organization (the partner settles it).
 */
export function creditedToBalance(totalCents: Cents, billedViaPartner: boolean): Cents {
  const total = toCents(totalCents);
  return !billedViaPartner && total < 0 ? -total : 0;
}
