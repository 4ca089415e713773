import { describe, expect, it } from 'vitest';
import { canDeletePaymentMethod, cardBadges, cardBrandName } from './payment-methods.ts';

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
