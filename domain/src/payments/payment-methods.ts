import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import { formatInvoiceDate } from '../format/dates.ts';
import type { PlanId } from '../organization/plans.ts';

export const cardSchema = z.object({
  brand: z.string(),
  last4: z.string().check(z.regex(/^\d{4}$/)),
  exp_month: z.number().check(z.int()).check(z.gte(1)).check(z.lte(12)),
  exp_year: z.number().check(z.int()),
});

export const lastChargeSchema = documented(
  z.object({
    status: documented(z.enum(['succeeded', 'declined']), {
      description: 'What the card answered: the money moved, or the provider declined it',
    }),
    at: documented(z.number().check(z.int()), {
      description: 'When the charge was attempted, unix seconds',
    }),
    decline_message: documented(z.nullable(z.string()), {
      description:
        'The provider\'s words for a decline, e.g. "Your card was declined."; null on success',
    }),
  }),
  { id: 'LastCharge' },
);
export type LastCharge = z.infer<typeof lastChargeSchema>;

export const paymentMethodSchema = documented(
  z.object({
    id: z.string(),
    is_default: z.boolean(),
    is_backup: documented(z.boolean(), {
      description:
        'The backup card: charged once, in the same attempt, when the engine finds the default ' +
        'card declined. At most one per organization, never the default',
    }),
    card: cardSchema,
    type: documented(z.literal('card'), { description: 'Cards are the only payment methods kept' }),
    created: documented(z.number().check(z.int()), {
      description: 'When it was added, unix seconds',
    }),
    has_address: documented(z.boolean(), {
      description:
        'The card carries a billing address (the card form asks for none; the provider may)',
    }),
    last_charge: documented(z.nullable(lastChargeSchema), {
      description:
        "The organization's latest charge the card answered (invoices, top-ups, plan changes); " +
        'payments cancelled before the card was asked are not counted. Null when never charged.',
    }),
  }),
  { id: 'PaymentMethod' },
);
export type PaymentMethod = z.infer<typeof paymentMethodSchema>;

export const paymentMethodsSchema = documented(
  z.object({ data: z.array(paymentMethodSchema), defaultPaymentMethodId: z.nullable(z.string()) }),
  { id: 'PaymentMethods' },
);
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
