import { describe, expect, it } from 'vitest';
import { CHANGES_DISABLED_MESSAGE, SAME_PLAN_MESSAGE } from '../plan-change-rules.ts';
import { CAPPED_METRICS } from './overage-reading.ts';
import { SPEND_CAP_RESOURCE_METRICS, spendCapRateTable } from './spend-cap-resources.ts';
import {
  NO_SPEND_CAP_PERMISSION_MESSAGE,
  SPEND_CAP_ALWAYS_OFF_MESSAGE,
  SPEND_CAP_MARKETPLACE_MESSAGE,
  SPEND_CAP_PRO_ONLY_MESSAGE,
  spendCapBlocker,
  spendCapConfirmBlocker,
  spendCapRefusal,
  spendCapToggledMessage,
  spendCapToggleFailedMessage,
  spendCapToggleOf,
  type SpendCapContext,
} from './spend-cap-rules.ts';

const pro: SpendCapContext = {
  organization: { slug: 'acme', managed_by: 'platform' },
  subscription: { plan_id: 'pro', usage_billing_enabled: false, billing_partner: null },
  projectUpdatesDisabled: false,
  canUpdateSubscription: true,
};
const on = (plan: SpendCapContext['subscription']['plan_id']): SpendCapContext => ({
  ...pro,
  subscription: { ...pro.subscription, plan_id: plan },
});

describe('spendCapRefusal', () => {
  it('lets Pro turn its cap off and on', () => {
    expect(spendCapRefusal(pro, false)).toBeNull();
    const payg = { ...pro, subscription: { ...pro.subscription, usage_billing_enabled: true } };
    expect(spendCapRefusal(payg, true)).toBeNull();
  });

  it("refuses with the spec's words and statuses", () => {
    expect(spendCapRefusal({ ...pro, canUpdateSubscription: false }, false)).toEqual({
      status: 403,
      reason: 'no_permission',
      message: 'You do not have permission to update spend cap',
    });
    expect(spendCapRefusal({ ...pro, projectUpdatesDisabled: true }, false)).toMatchObject({
      status: 409,
      message: 'Subscription changes are currently disabled. Our engineers are working on a fix.',
    });
    const aws = { ...pro, organization: { slug: 'acme', managed_by: 'aws-marketplace' as const } };
    expect(spendCapRefusal(aws, false)).toMatchObject({ status: 409, reason: 'aws_marketplace' });
    for (const plan of ['free', 'team', 'enterprise'] as const) {
      expect(spendCapRefusal(on(plan), false)).toEqual({
        status: 409,
        reason: 'not_pro',
        message: 'Toggling of the spend cap is only available on the Pro Plan',
      });
    }
    expect(spendCapRefusal(pro, true)).toEqual({
      status: 409,
      reason: 'unchanged',
      message: SAME_PLAN_MESSAGE,
    });
  });
});

describe('the spend cap buttons', () => {
  it('disables "Change spend cap" under the switch, on AWS Marketplace, team and enterprise', () => {
    expect(spendCapBlocker(pro)).toBeNull();
    expect(spendCapBlocker(on('free'))).toBeNull();
    expect(spendCapBlocker({ ...pro, projectUpdatesDisabled: true })).toBe(
      CHANGES_DISABLED_MESSAGE,
    );
    expect(
      spendCapBlocker({ ...pro, subscription: { ...pro.subscription, billing_partner: 'aws' } }),
    ).toBe(SPEND_CAP_MARKETPLACE_MESSAGE);
    expect(spendCapBlocker(on('team'))).toBe(SPEND_CAP_ALWAYS_OFF_MESSAGE);
    expect(spendCapBlocker(on('enterprise'))).toBe(SPEND_CAP_ALWAYS_OFF_MESSAGE);
  });

  it('disables confirm when free, loading, unchanged or without permission', () => {
    expect(spendCapConfirmBlocker(pro, false, false)).toBeNull();
    expect(spendCapConfirmBlocker(pro, false, true)).toEqual({ reason: 'loading', message: null });
    expect(spendCapConfirmBlocker(pro, true, false)).toEqual({
      reason: 'unchanged',
      message: null,
    });
    expect(spendCapConfirmBlocker(on('free'), false, false)).toEqual({
      reason: 'not_pro',
      message: SPEND_CAP_PRO_ONLY_MESSAGE,
    });
    expect(spendCapConfirmBlocker({ ...pro, canUpdateSubscription: false }, false, false)).toEqual({
      reason: 'no_permission',
      message: NO_SPEND_CAP_PERMISSION_MESSAGE,
    });
  });
});

describe('spendCapToggleOf', () => {
  it('recognises Pro to Pro with the other setting, and nothing else', () => {
    expect(spendCapToggleOf({ plan_id: 'pro', usage_billing_enabled: false }, 'tier_payg')).toEqual(
      {
        capOn: false,
      },
    );
    expect(spendCapToggleOf({ plan_id: 'pro', usage_billing_enabled: true }, 'tier_pro')).toEqual({
      capOn: true,
    });
    expect(
      spendCapToggleOf({ plan_id: 'pro', usage_billing_enabled: true }, 'tier_payg'),
    ).toBeNull();
    expect(
      spendCapToggleOf({ plan_id: 'free', usage_billing_enabled: false }, 'tier_pro'),
    ).toBeNull();
    expect(
      spendCapToggleOf({ plan_id: 'team', usage_billing_enabled: true }, 'tier_payg'),
    ).toBeNull();
  });

  it('takes Free asking for the pay-as-you-go tier as turning the cap off, which only Pro may', () => {
    const free = { plan_id: 'free', usage_billing_enabled: false } as const;
    expect(spendCapToggleOf(free, 'tier_payg')).toEqual({ capOn: false });
    const context = {
      organization: { slug: 'acme-free', managed_by: 'platform' },
      subscription: { ...free, billing_partner: null },
      projectUpdatesDisabled: false,
      canUpdateSubscription: true,
    } as const;
    expect(spendCapRefusal(context, false)).toMatchObject({
      status: 409,
      message: SPEND_CAP_PRO_ONLY_MESSAGE,
    });
  });
});

describe('texts and rates', () => {
  it("has the spec's toasts", () => {
    expect(spendCapToggledMessage(true)).toBe('Successfully enabled spend cap');
    expect(spendCapToggledMessage(false)).toBe('Successfully disabled spend cap');
    expect(spendCapToggleFailedMessage('Card declined')).toBe(
      'Failed to toggle spend cap: Card declined',
    );
  });

  it('lists every capped metric under exactly one resource, priced by the catalogue', () => {
    const listed = Object.values(SPEND_CAP_RESOURCE_METRICS).flat();
    expect([...listed].sort()).toEqual([...CAPPED_METRICS].sort());
    const table = spendCapRateTable();
    expect(table.map((row) => row.name)).toEqual([
      'Database',
      'Auth',
      'Storage',
      'Realtime',
      'Edge Functions',
    ]);
    expect(table[0]?.rates).toContainEqual({
      metric: 'EGRESS',
      name: 'Egress',
      included: 250e9,
      price: '$0.09 per GB',
    });
    expect(table[4]?.rates).toEqual([
      {
        metric: 'FUNCTION_INVOCATIONS',
        name: 'Edge Function Invocations',
        included: 2_000_000,
        price: '$2.00 per million',
      },
    ]);
  });
});
