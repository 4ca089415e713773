import { describe, expect, it } from 'vitest';
import { BILLING_PLANS } from './billing-plans.ts';
import { featureText, PLAN_CARDS, planCardPrice, planCards } from './plan-cards.ts';

describe('plan cards', () => {
  it('lists free, pro, team and enterprise with their tier ids and catalogue prices', () => {
    expect(planCards().map((card) => [card.id, card.name, card.priceMonthly])).toEqual([
      ['tier_free', 'Free', BILLING_PLANS.free.monthlyPriceCents],
      ['tier_pro', 'Pro', BILLING_PLANS.pro.monthlyPriceCents],
      ['tier_team', 'Team', BILLING_PLANS.team.monthlyPriceCents],
      ['tier_enterprise', 'Enterprise', null],
    ]);
  });

  it('shows "From" above 0, $0 for free and "Custom" for enterprise (pricing.md)', () => {
    expect(planCards().map(planCardPrice)).toEqual(['$0', 'From $25', 'From $599', 'Custom']);
  });

  it('states the quotas and overage prices of pricing.md, from the catalogue', () => {
    expect(PLAN_CARDS.free.features.map(featureText)).toEqual(
      expect.arrayContaining([
        '50,000 monthly active users',
        '500 MB database',
        '5 GB egress',
        '1 GB file storage',
      ]),
    );
    expect(PLAN_CARDS.pro.features).toEqual(
      expect.arrayContaining([
        ['100,000 monthly active users', 'then $0.00325 per MAU'],
        ['8 GB database', 'then $0.125 per GB'],
        ['250 GB egress', 'then $0.09 per GB'],
        ['100 GB file storage', 'then $0.021 per GB'],
      ]),
    );
  });

  it('makes only enterprise a contact link', () => {
    expect(
      planCards()
        .filter((card) => card.href)
        .map((card) => card.planId),
    ).toEqual(['enterprise']);
  });
});
