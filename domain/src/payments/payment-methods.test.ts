import { describe, expect, it } from 'vitest';
import {
  canDeletePaymentMethod,
  cardBadges,
  cardBrandName,
  cardsDefaultFirst,
  lastChargeDeclined,
  preselectedCard,
} from './payment-methods.ts';

const at = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d) / 1000;
const card = (exp_month: number, exp_year: number, is_default = false) => ({
  is_default,
  card: { exp_month, exp_year },
});

describe('cardBadges', () => {
  it('marks the expiry month as expiring soon and later months as expired', () => {
    expect(cardBadges(card(11, 2026), at(2026, 11, 30))).toEqual(['Expiring soon']);
    expect(cardBadges(card(10, 2026), at(2026, 11, 1))).toEqual(['Expired']);
    expect(cardBadges(card(12, 2026), at(2026, 11, 30))).toEqual([]);
    expect(cardBadges(card(1, 2027), at(2026, 12, 31))).toEqual([]);
  });

  it('marks the default card as active', () => {
    expect(cardBadges(card(11, 2028, true), at(2026, 11, 21))).toEqual(['Active']);
    expect(cardBadges(card(11, 2026, true), at(2026, 11, 21))).toEqual(['Expiring soon', 'Active']);
  });
});

describe('canDeletePaymentMethod', () => {
  it('keeps the default card except on the free plan with one card', () => {
    const method = { id: 'pm_1', is_default: true };
    expect(canDeletePaymentMethod(method, { planId: 'pro', cardCount: 2 })).toBe(false);
    expect(canDeletePaymentMethod(method, { planId: 'pro', cardCount: 1 })).toBe(false);
    expect(canDeletePaymentMethod(method, { planId: 'free', cardCount: 2 })).toBe(false);
    expect(canDeletePaymentMethod(method, { planId: 'free', cardCount: 1 })).toBe(true);
    expect(
      canDeletePaymentMethod({ id: 'pm_2', is_default: false }, { planId: 'pro', cardCount: 2 }),
    ).toBe(true);
  });
});

describe('cardBrandName', () => {
  it('names known brands', () => {
    expect(cardBrandName('visa')).toBe('Visa');
    expect(cardBrandName('discover')).toBe('Discover');
  });
});

describe('lastChargeDeclined', () => {
  const nov3 = Date.UTC(2026, 10, 3, 9, 30) / 1000;
  it("names the day of a declined charge and the provider's words", () => {
    expect(
      lastChargeDeclined({
        last_charge: { status: 'declined', at: nov3, decline_message: 'Your card was declined.' },
      }),
    ).toEqual({
      title: 'Last charge declined on Nov 03, 2026',
      message: 'Your card was declined.',
    });
  });
  it('says nothing of a card that paid or was never charged', () => {
    expect(
      lastChargeDeclined({ last_charge: { status: 'succeeded', at: nov3, decline_message: null } }),
    ).toBeNull();
    expect(lastChargeDeclined({ last_charge: null })).toBeNull();
  });
});

describe('cards offered by a payment form', () => {
  const now = at(2026, 11, 24);
  const saved = (id: string, is_default: boolean, extra: object = {}) => ({
    id,
    is_default,
    card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2028 },
    last_charge: null,
    ...extra,
  });

  it('lists the default card first, the others in their order', () => {
    const list = [saved('a', false), saved('b', true), saved('c', false)];
    expect(cardsDefaultFirst(list).map((card) => card.id)).toEqual(['b', 'a', 'c']);
    expect(cardsDefaultFirst([])).toEqual([]);
  });

  it('starts with the default card, or a new card when it would fail', () => {
    expect(preselectedCard([saved('a', false), saved('b', true)], now)).toBe('b');
    expect(preselectedCard([saved('a', false)], now)).toBeNull();
    expect(preselectedCard([], now)).toBeNull();
    const expired = { card: { brand: 'visa', last4: '4242', exp_month: 10, exp_year: 2026 } };
    expect(preselectedCard([saved('b', true, expired)], now)).toBeNull();
    const declined = {
      last_charge: {
        status: 'declined',
        at: now - 86_400,
        decline_message: 'Your card was declined.',
      },
    } as const;
    expect(preselectedCard([saved('b', true, declined)], now)).toBeNull();
    const paid = { last_charge: { status: 'succeeded', at: now, decline_message: null } } as const;
    expect(preselectedCard([saved('b', true, paid)], now)).toBe('b');
  });
});
