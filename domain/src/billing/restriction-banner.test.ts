import { describe, expect, it } from 'vitest';
import { restrictionBanner, restrictionCta } from './restriction-banner.ts';
import { summarizeUsage } from './usage-summary.ts';

const within = summarizeUsage('free', false, { EGRESS: 1e9 }, []);
const beyond = summarizeUsage('free', false, { EGRESS: 6e9, DATABASE_SIZE: 6e8 }, []);
const free = { plan: { id: 'free' as const }, restriction_status: null, restriction_data: null };

describe('restrictionBanner', () => {
  it('shows nothing when no state applies', () => {
    expect(restrictionBanner({ org: free, usages: within })).toBeNull();
  });

  it('shows exceeded limits for capped usage beyond the quota with no restriction status', () => {
    expect(restrictionBanner({ org: free, usages: beyond })).toEqual({
      kind: 'exceededLimits',
      variant: 'destructive',
      cta: { label: 'Upgrade plan', panel: 'subscriptionPlan' },
    });
  });

  it('follows the restriction status', () => {
    const data = { grace_period_end: 1_800_000_000, violations: ['exceed_egress_quota' as const] };
    expect(
      restrictionBanner({
        org: { ...free, restriction_status: 'grace_period', restriction_data: data },
        usages: beyond,
      }),
    ).toEqual({
      kind: 'gracePeriod',
      variant: 'warning',
      graceEnd: 1_800_000_000,
      cta: { label: 'Upgrade plan', panel: 'subscriptionPlan' },
    });
    expect(
      restrictionBanner({
        org: { ...free, restriction_status: 'grace_period_over', restriction_data: data },
        usages: [],
      }),
    ).toMatchObject({ kind: 'gracePeriodOver', variant: 'warning' });
    const restricted = {
      plan: { id: 'pro' as const },
      restriction_status: 'restricted' as const,
      restriction_data: { grace_period_end: null, violations: ['overdue_payment' as const] },
    };
    expect(
      restrictionBanner({
        org: { ...restricted, restriction_data: { grace_period_end: null, violations: [] } },
        usages: [],
        usageBillingEnabled: false,
      }),
    ).toEqual({
      kind: 'restricted',
      variant: 'destructive',
      cta: { label: 'Disable spend cap', panel: 'costControl' },
    });
  });

  it('asks for the overdue invoice to be paid and the card replaced, never for a spend cap change', () => {
    const overdue = { grace_period_end: null, violations: ['overdue_payment' as const] };
    const payAndReplace = {
      cta: { label: 'Pay outstanding invoice', action: 'payOutstandingInvoice' },
      secondaryCta: { label: 'Replace card', section: 'payment-methods' },
    };
    // restricted-co: Pro with the spend cap on, restricted for its overdue invoice.
    for (const usageBillingEnabled of [false, true, undefined]) {
      expect(
        restrictionBanner({
          org: { plan: { id: 'pro' }, restriction_status: 'restricted', restriction_data: overdue },
          usages: [],
          usageBillingEnabled,
        }),
      ).toEqual({ kind: 'restricted', variant: 'destructive', ...payAndReplace });
    }
    // Beside a usage violation, and on Free, paying is still what lifts the overdue part.
    const both = {
      grace_period_end: 1_800_000_000,
      violations: ['exceed_egress_quota' as const, 'overdue_payment' as const],
    };
    expect(
      restrictionBanner({
        org: { ...free, restriction_status: 'restricted', restriction_data: both },
        usages: beyond,
      }),
    ).toMatchObject(payAndReplace);
  });

  it('shows nothing for a restriction status without restriction data', () => {
    expect(
      restrictionBanner({ org: { ...free, restriction_status: 'restricted' }, usages: beyond }),
    ).toBeNull();
  });
});

describe('restrictionCta', () => {
  it('upgrades free, disables a spend cap that is on, changes it otherwise', () => {
    expect(restrictionCta('free', false)).toEqual({
      label: 'Upgrade plan',
      panel: 'subscriptionPlan',
    });
    expect(restrictionCta('pro', false)).toEqual({
      label: 'Disable spend cap',
      panel: 'costControl',
    });
    expect(restrictionCta('pro', true)).toEqual({
      label: 'Change spend cap',
      panel: 'costControl',
    });
    expect(restrictionCta('team', true)).toEqual({
      label: 'Change spend cap',
      panel: 'costControl',
    });
    expect(restrictionCta('pro', undefined)).toEqual({
      label: 'Change spend cap',
      panel: 'costControl',
    });
  });
});
