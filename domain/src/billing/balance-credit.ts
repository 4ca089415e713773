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

/** What the credit balance covers of an invoice, and what is left for the card. */
export interface CreditCover {
  readonly creditApplied: Cents;
  readonly charge: Cents;
}

/**
 * How the credit balance meets an invoice's total when it is finalized (product-decisions §4): the
 * credit the organization holds (a positive balance) pays first, up to the total; the card is charged
 * the rest, never below zero. A partner that bills the organization settles it: no credit applies.
 */
export function creditCover(
  totalCents: Cents,
  balanceCents: Cents,
  billedViaPartner: boolean,
): CreditCover {
  const total = Math.max(0, toCents(totalCents));
  const held = billedViaPartner ? 0 : Math.max(0, toCents(balanceCents));
  const creditApplied = Math.min(held, total);
  return { creditApplied, charge: total - creditApplied };
}
