import { describe, expect, it } from 'vitest';
import {
  BILLING_SECTIONS,
  parseBillingPanel,
  parseBillingSource,
  visibleBillingSections,
} from './billing-page.ts';

describe('visibleBillingSections', () => {
  const base = { disabledFeatures: [], planId: 'pro', billedViaPartner: false } as const;

  it('shows every section in the spec order for a paid plan', () => {
    expect(visibleBillingSections(base)).toEqual([...BILLING_SECTIONS]);
  });

  it('hides the breakdown and spend alerts on the free plan', () => {
    const sections = visibleBillingSections({ ...base, planId: 'free' });
    expect(sections).not.toContain('breakdown');
    expect(sections).not.toContain('spend-alerts');
  });

  it('puts spend alerts right after cost control', () => {
    const sections = visibleBillingSections(base);
    expect(sections.indexOf('spend-alerts')).toBe(sections.indexOf('cost-control') + 1);
  });

  it('hides payment methods, email and address when billed via a partner', () => {
    const sections = visibleBillingSections({ ...base, billedViaPartner: true });
    expect(sections).toEqual([
      'subscription',
      'cost-control',
      'spend-alerts',
      'breakdown',
      'invoices',
      'credits-balance',
    ]);
  });

  it('follows the feature flags', () => {
    expect(visibleBillingSections({ ...base, disabledFeatures: ['invoices'] })).not.toContain(
      'invoices',
    );
    expect(visibleBillingSections({ ...base, disabledFeatures: ['credits'] })).not.toContain(
      'credits-balance',
    );
    expect(
      visibleBillingSections({ ...base, disabledFeatures: ['payment_methods'] }),
    ).not.toContain('payment-methods');
    const noAccountData = visibleBillingSections({
      ...base,
      disabledFeatures: ['billing_account_data'],
    });
    expect(noAccountData).not.toContain('email');
    expect(noAccountData).not.toContain('address');
  });

  it('shows nothing when the billing feature set is off', () => {
    expect(visibleBillingSections({ ...base, disabledFeatures: ['billing'] })).toEqual([]);
  });
});

describe('query parameters', () => {
  it('accepts only the known panels and sources', () => {
    expect(parseBillingPanel('costControl')).toBe('costControl');
    expect(parseBillingPanel('other')).toBeNull();
    expect(parseBillingPanel(null)).toBeNull();
    expect(parseBillingSource('fairUseRestricted')).toBe('fairUseRestricted');
    expect(parseBillingSource('x')).toBeNull();
  });
});
