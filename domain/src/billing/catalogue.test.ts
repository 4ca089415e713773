import { describe, expect, it } from 'vitest';
import { COMPUTE_SIZES } from '../organization/projects.ts';
import {
  ADDON_DEFINITIONS,
  ADDON_METRICS,
  BILLING_PLANS,
  CATALOGUE,
  COMPUTE_DEFINITIONS,
  COMPUTE_METRICS,
  QUOTA_DEFINITIONS,
  QUOTA_METRICS,
  USAGE_METRIC_DEFINITIONS,
  USAGE_METRICS,
  addonByIdentifier,
  computeDisplayName,
  computeMetricForSize,
  formatPriceDollars,
  isSpendCapOn,
  planChangeType,
  planIdOfTier,
  quotaFor,
  tierFor,
  TIERS,
  usageBillingEnabledForTier,
  usageMetricSchema,
} from './catalogue.ts';

describe('catalogue: plans', () => {
  it('states the price list', () => {
    expect(BILLING_PLANS.free.monthlyPriceCents).toBe(0);
    expect(BILLING_PLANS.pro.monthlyPriceCents).toBe(2500);
    expect(BILLING_PLANS.team.monthlyPriceCents).toBe(59_900);
    expect(BILLING_PLANS.enterprise.monthlyPriceCents).toBeNull();
    expect(BILLING_PLANS.pro.computeCreditsCents).toBe(1000);
    expect(BILLING_PLANS.team.computeCreditsCents).toBe(1000);
    expect(BILLING_PLANS.free.billsCompute).toBe(false);
    expect(CATALOGUE.plans).toBe(BILLING_PLANS);
  });

  it('maps tiers and the spend cap both ways', () => {
    expect(tierFor('pro', false)).toBe('tier_pro');
    expect(tierFor('pro', true)).toBe('tier_payg');
    expect(tierFor('team', true)).toBe('tier_team');
    expect(tierFor('free', false)).toBe('tier_free');
    for (const tier of TIERS) expect(BILLING_PLANS[planIdOfTier(tier)].tiers).toContain(tier);
    expect(usageBillingEnabledForTier('tier_payg')).toBe(true);
    expect(usageBillingEnabledForTier('tier_pro')).toBe(false);
    expect(isSpendCapOn('free', true)).toBe(true);
    expect(isSpendCapOn('pro', false)).toBe(true);
    expect(isSpendCapOn('pro', true)).toBe(false);
    expect(isSpendCapOn('team', false)).toBe(false);
    expect(isSpendCapOn('enterprise', false)).toBe(false);
    expect(planChangeType('free', 'pro')).toBe('upgrade');
    expect(planChangeType('team', 'pro')).toBe('downgrade');
    expect(planChangeType('pro', 'pro')).toBe('none');
  });
});

describe('catalogue: usage and overage', () => {
  it('prices overage as the price list states it', () => {
    const stated = Object.fromEntries(
      QUOTA_METRICS.map((m) => {
        const q = QUOTA_DEFINITIONS[m];
        return [m, `${formatPriceDollars(q.price, q.priceUnit.units)} ${q.priceUnit.label}`];
      }),
    );
    expect(stated).toEqual({
      EGRESS: '$0.09 per GB',
      CACHED_EGRESS: '$0.03 per GB',
      DATABASE_SIZE: '$0.125 per GB',
      STORAGE_SIZE: '$0.021 per GB',
      MONTHLY_ACTIVE_USERS: '$0.00325 per MAU',
      MONTHLY_ACTIVE_THIRD_PARTY_USERS: '$0.00325 per MAU',
      MONTHLY_ACTIVE_SSO_USERS: '$0.015 per MAU',
      STORAGE_IMAGES_TRANSFORMED: '$5.00 per 1,000',
      FUNCTION_INVOCATIONS: '$2.00 per million',
      REALTIME_PEAK_CONNECTIONS: '$10.00 per 1,000',
      REALTIME_MESSAGE_COUNT: '$2.50 per million',
      DISK_SIZE_GB_HOURS_GP3: '$0.000171 per GB-hour',
      DISK_IOPS_GP3: '$0.024 per IOPS-month',
      DISK_THROUGHPUT_GP3: '$0.095 per MB/s-month',
      LOG_DRAIN_EVENTS: '$0.20 per million',
    });
  });

  it('includes the quotas of the price list', () => {
    expect(quotaFor('free', 'EGRESS')).toEqual({ included: 5e9, scope: 'organization' });
    expect(quotaFor('pro', 'EGRESS')).toEqual({ included: 250e9, scope: 'organization' });
    expect(quotaFor('team', 'DATABASE_SIZE')?.included).toBe(8e9);
    expect(quotaFor('free', 'DATABASE_SIZE')?.included).toBe(5e8);
    expect(quotaFor('free', 'MONTHLY_ACTIVE_SSO_USERS')).toBeNull();
    expect(quotaFor('pro', 'DISK_SIZE_GB_HOURS_GP3')).toEqual({
      included: 8,
      scope: 'project_hour',
    });
    expect(QUOTA_METRICS.filter((m) => !QUOTA_DEFINITIONS[m].capped)).toEqual([
      'DISK_SIZE_GB_HOURS_GP3',
      'DISK_IOPS_GP3',
      'DISK_THROUGHPUT_GP3',
      'LOG_DRAIN_EVENTS',
    ]);
  });

  it('describes every usage metric', () => {
    expect(USAGE_METRICS).toHaveLength(23);
    for (const id of USAGE_METRICS) expect(USAGE_METRIC_DEFINITIONS[id].id).toBe(id);
    expect(USAGE_METRIC_DEFINITIONS.DATABASE_SIZE.aggregation).toBe('average');
    expect(USAGE_METRIC_DEFINITIONS.STORAGE_SIZE.aggregation).toBe('average');
    expect(USAGE_METRIC_DEFINITIONS.MONTHLY_ACTIVE_USERS.aggregation).toBe('distinct');
    expect(USAGE_METRIC_DEFINITIONS.EGRESS.aggregation).toBe('sum');
    expect(USAGE_METRIC_DEFINITIONS.EGRESS.invoiceUnit).toBe('GB');
    for (const id of [
      'CUSTOM_DOMAIN',
      'IPV4',
      'PITR_7',
      'PITR_14',
      'PITR_28',
      'LOG_DRAIN',
      'AUTH_MFA_PHONE',
      'AUTH_MFA_WEB_AUTHN',
    ] as const) {
      expect(USAGE_METRIC_DEFINITIONS[id].invoiceUnit).toBe('Hours');
    }
    expect(usageMetricSchema.safeParse('EGRESS').success).toBe(true);
    expect(usageMetricSchema.safeParse('COMPUTE_HOURS_XS').success).toBe(false);
  });
});

describe('catalogue: compute and add-ons', () => {
  it('prices compute per hour', () => {
    const hourly = COMPUTE_METRICS.map((m) => [
      computeDisplayName(m),
      formatPriceDollars(COMPUTE_DEFINITIONS[m].hourlyPrice),
    ]);
    expect(hourly).toEqual([
      ['Micro', '$0.01344'],
      ['Small', '$0.0206'],
      ['Medium', '$0.0822'],
      ['Large', '$0.1517'],
      ['XL', '$0.2877'],
      ['2XL', '$0.562'],
      ['4XL', '$1.32'],
      ['8XL', '$2.562'],
      ['12XL', '$3.836'],
      ['16XL', '$5.12'],
      ['Branching', '$0.01344'],
    ]);
  });

  it('maps every project compute size to a metric', () => {
    for (const size of COMPUTE_SIZES) expect(COMPUTE_METRICS).toContain(computeMetricForSize(size));
    expect(computeMetricForSize('micro')).toBe('COMPUTE_HOURS_XS');
    expect(computeMetricForSize('2xlarge')).toBe('COMPUTE_HOURS_2XL');
  });

  it('prices add-ons per month, with identifiers', () => {
    const table = ADDON_METRICS.map((m) => {
      const a = ADDON_DEFINITIONS[m];
      return [a.identifier, a.monthlyPriceCents, a.firstProjectMonthlyPriceCents];
    });
    expect(table).toEqual([
      ['cd_default', 1000, null],
      ['ipv4_default', 400, null],
      ['pitr_7', 10_000, null],
      ['pitr_14', 20_000, null],
      ['pitr_28', 40_000, null],
      ['log_drain_default', 6000, null],
      ['auth_mfa_phone_default', 1000, 7500],
      ['auth_mfa_web_authn_default', 0, null],
    ]);
    expect(addonByIdentifier('pitr_14')?.metric).toBe('PITR_14');
    expect(addonByIdentifier('nope')).toBeNull();
  });

  it('names no add-on or usage line so that it would be grouped as plan or compute', () => {
    const names = [
      ...ADDON_METRICS.map((m) => ADDON_DEFINITIONS[m].name),
      ...QUOTA_METRICS.map((m) => USAGE_METRIC_DEFINITIONS[m].name),
    ];
    for (const name of names) expect(name.toLowerCase()).not.toMatch(/plan|compute/);
  });
});
