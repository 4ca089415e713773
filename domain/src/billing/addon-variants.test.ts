import { describe, expect, it } from 'vitest';
import { ADDON_DEFINITIONS } from './addons.ts';
import { addonVariant, computeVariant, subscriptionAddons } from './addon-variants.ts';

describe('add-on variants', () => {
  it('price compute by the hour, from the catalogue', () => {
    expect(computeVariant('pro', 'micro')).toEqual({
      name: 'Micro',
      identifier: 'ci_micro',
      price: 1.344,
      price_description: '$0.01344 per hour',
      price_interval: 'hourly',
      price_type: 'usage',
    });
    expect(computeVariant('team', 'medium')).toMatchObject({ price: 8.22 });
    // Nano is billed as Micro on a paid plan, and Free bills no compute at all.
    expect(computeVariant('pro', 'nano')).toMatchObject({ name: 'Micro', price: 1.344 });
    expect(computeVariant('free', 'nano')).toMatchObject({
      price: 0,
      price_description: 'Included in the Free plan',
    });
  });

  it('price add-ons by the month, the first project with phone MFA at its own price', () => {
    expect(addonVariant(ADDON_DEFINITIONS.PITR_7, 'pitr_7', true)).toEqual({
      name: 'Point-in-Time Recovery (7 days)',
      identifier: 'pitr_7',
      price: 10_000,
      price_description: '$100.00 per month',
      price_interval: 'monthly',
      price_type: 'fixed',
    });
    const mfa = ADDON_DEFINITIONS.AUTH_MFA_PHONE;
    expect(addonVariant(mfa, 'auth_mfa_phone_default', true)).toMatchObject({
      price: 7500,
      price_description: '$75.00 per month (first project)',
    });
    expect(addonVariant(mfa, 'auth_mfa_phone_default', false)).toMatchObject({ price: 1000 });
    expect(
      addonVariant(ADDON_DEFINITIONS.AUTH_MFA_WEB_AUTHN, 'auth_mfa_web_authn_default', true),
    ).toMatchObject({ price: 0, price_description: 'Included' });
  });

  it("sum each monthly add-on over the organization's projects, leaving compute out", () => {
    const mfa = ADDON_DEFINITIONS.AUTH_MFA_PHONE;
    const projects = [true, false].map((first, i) => ({
      name: `P${i}`,
      ref: `p${i}`,
      addons: [
        { type: 'compute_instance' as const, variant: computeVariant('pro', 'micro') },
        { type: 'auth_mfa_phone' as const, variant: addonVariant(mfa, mfa.identifier, first) },
      ],
    }));
    expect(subscriptionAddons(projects)).toEqual([
      {
        type: 'auth_mfa_phone',
        identifier: 'auth_mfa_phone_default',
        name: 'Phone MFA',
        quantity: 2,
        price: 8500,
      },
    ]);
  });
});
