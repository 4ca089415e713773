import { z } from 'zod';
import { formatInvoiceDate } from '../format/dates.ts';
import type { PlanId } from '../organization/plans.ts';

export const cardSchema = z.object({
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int(),
});

export const lastChargeSchema = z
  .object({
    status: z
      .enum(['succeeded', 'declined'])
      .describe('What the card answered: the money moved, or the provider declined it'),
    at: z.number().int().describe('When the charge was attempted, unix seconds'),
    decline_message: z
      .string()
      .nullable()
      .describe(
        'The provider\'s words for a decline, e.g. "Your card was declined."; null on success',
      ),
  })
  .meta({ id: 'LastCharge' });
export type LastCharge = z.infer<typeof lastChargeSchema>;

export const paymentMethodSchema = z
  .object({
    id: z.string(),
    is_default: z.boolean(),
    is_backup: z
      .boolean()
      .describe(
        'The backup card: charged once, in the same attempt, when the engine finds the default ' +
          'card declined. At most one per organization, never the default',
      ),
    card: cardSchema,
    type: z.literal('card').describe('Cards are the only payment methods kept'),
    created: z.number().int().describe('When it was added, unix seconds'),
    has_address: z
      .boolean()
      .describe(
        'The card carries a billing address (the card form asks for none; the provider may)',
      ),
    last_charge: lastChargeSchema
      .nullable()
      .describe(
        "The organization's latest charge the card answered (invoices, top-ups, plan changes); " +
          'payments cancelled before the card was asked are not counted. Null when never charged.',
      ),
  })
  .meta({ id: 'PaymentMethod' });
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const paymentMethodsSchema = z
  .object({ data: z.array(paymentMethodSchema), defaultPaymentMethodId: z.string().nullable() })
  .meta({ id: 'PaymentMethods' });
export type PaymentMethods = z.infer<typeof paymentMethodsSchema>;

export type CardBadge = 'Expiring soon' | 'Expired' | 'Active' | 'Backup';

/**
 * The badges of a card (spec: "Expiring soon" in its expiry month, "Expired" after it, "Active" when it is
 * the default; and "Backup" for the backup card). A card expires at the end of its expiry month, UTC.
 */
export function cardBadges(
  method: {
    is_default: boolean;
    is_backup?: boolean;
    card: { exp_month: number; exp_year: number };
  },
  nowUnixSeconds: number,
): CardBadge[] {
  const now = new Date(nowUnixSeconds * 1000);
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const expiry = method.card.exp_year * 12 + (method.card.exp_month - 1);
  const badges: CardBadge[] = [];
  if (expiry < current) badges.push('Expired');
  else if (expiry === current) badges.push('Expiring soon');
  if (method.is_default) badges.push('Active');
  if (method.is_backup) badges.push('Backup');
  return badges;
}

export const DEFAULT_CARD_DELETE_MESSAGE = 'The default payment method cannot be deleted';

/** The default card stays, except on the free plan when it is the only card. */
export function canDeletePaymentMethod(
  method: { id: string; is_default: boolean },
  context: { planId: PlanId; cardCount: number },
): boolean {
  if (!method.is_default) return true;
  return context.planId === 'free' && context.cardCount === 1;
}

export const CARD_BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  unknown: 'Card',
};

export function cardBrandName(brand: string): string {
  return CARD_BRAND_NAMES[brand] ?? brand.charAt(0).toUpperCase() + brand.slice(1);
}

/**
 * What a card row says when the card declined its last charge: "Last charge declined on Nov 03, 2026",
 * and the provider's words. Nothing when it paid, or was never charged.
 */
export function lastChargeDeclined(
  method: Pick<PaymentMethod, 'last_charge'>,
): { title: string; message: string | null } | null {
  const charge = method.last_charge;
  if (charge?.status !== 'declined') return null;
  return {
    title: `Last charge declined on ${formatInvoiceDate(charge.at)}`,
    message: charge.decline_message,
  };
}

/** The saved cards a payment form offers: the default first, then the others in the list's order. */
export function cardsDefaultFirst<T extends { is_default: boolean }>(methods: readonly T[]): T[] {
  return [...methods.filter((m) => m.is_default), ...methods.filter((m) => !m.is_default)];
}

/**
 * The card a payment form starts with: the default card, unless it has expired or declined its last
 * charge (paying with it again would most likely fail the same way); then null, a new card.
 */
export function preselectedCard(
  methods: readonly Pick<PaymentMethod, 'id' | 'is_default' | 'card' | 'last_charge'>[],
  nowUnixSeconds: number,
): string | null {
  const card = methods.find((method) => method.is_default);
  if (!card) return null;
  if (cardBadges(card, nowUnixSeconds).includes('Expired')) return null;
  if (card.last_charge?.status === 'declined') return null;
  return card.id;
}
