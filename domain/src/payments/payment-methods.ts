import { z } from 'zod';
import type { PlanId } from '../organization/plans.ts';

export const cardSchema = z.object({
  brand: z.string(),
  last4: z.string().regex(/^\d{4}$/),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int(),
});

export const paymentMethodSchema = z
  .object({
    id: z.string(),
    is_default: z.boolean(),
    card: cardSchema,
    type: z.literal('card').describe('Cards are the only payment methods kept'),
    created: z.number().int().describe('When it was added, unix seconds'),
    has_address: z
      .boolean()
      .describe(
        'The card carries a billing address (the card form asks for none; the provider may)',
      ),
  })
  .meta({ id: 'PaymentMethod' });
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const paymentMethodsSchema = z
  .object({ data: z.array(paymentMethodSchema), defaultPaymentMethodId: z.string().nullable() })
  .meta({ id: 'PaymentMethods' });
export type PaymentMethods = z.infer<typeof paymentMethodsSchema>;

export type CardBadge = 'Expiring soon' | 'Expired' | 'Active';

/**
 * The badges of a card (spec: "Expiring soon" in its expiry month, "Expired" after it, "Active" when it is
 * the default). A card expires at the end of its expiry month, UTC.
 */
export function cardBadges(
  method: { is_default: boolean; card: { exp_month: number; exp_year: number } },
  nowUnixSeconds: number,
): CardBadge[] {
  const now = new Date(nowUnixSeconds * 1000);
  const current = now.getUTCFullYear() * 12 + now.getUTCMonth();
  const expiry = method.card.exp_year * 12 + (method.card.exp_month - 1);
  const badges: CardBadge[] = [];
  if (expiry < current) badges.push('Expired');
  else if (expiry === current) badges.push('Expiring soon');
  if (method.is_default) badges.push('Active');
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
