import { describe, expect, it } from 'vitest';
import { featuresLostOnDowngrade, PLAN_ADDITIONS } from './plan-features-lost.ts';

describe('featuresLostOnDowngrade', () => {
  it('Pro to Free loses what Pro adds', () => {
    expect(featuresLostOnDowngrade('pro', 'free')).toEqual(PLAN_ADDITIONS.pro);
    expect(featuresLostOnDowngrade('pro', 'free')).toContain('Email support');
  });

  it('Team to Pro loses only what Team adds', () => {
    expect(featuresLostOnDowngrade('team', 'pro')).toEqual(PLAN_ADDITIONS.team);
    expect(featuresLostOnDowngrade('team', 'pro')).not.toContain('Email support');
  });

  it('Team to Free loses Team then Pro additions', () => {
    expect(featuresLostOnDowngrade('team', 'free')).toEqual([
      ...PLAN_ADDITIONS.team,
      ...PLAN_ADDITIONS.pro,
    ]);
  });

  it('loses nothing on an upgrade or the same plan', () => {
    expect(featuresLostOnDowngrade('free', 'pro')).toEqual([]);
    expect(featuresLostOnDowngrade('pro', 'pro')).toEqual([]);
  });
});
