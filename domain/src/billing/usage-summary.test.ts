import { describe, expect, it } from 'vitest';
import { exceededCappedMetrics, isOverWarningThreshold, summarizeUsage } from './usage-summary.ts';

const byMetric = (records: ReturnType<typeof summarizeUsage>) =>
  new Map(records.map((r) => [r.metric, r]));

describe('summarizeUsage', () => {
  it('limits a free org at its quota and costs it nothing', () => {
    const usage = byMetric(
      summarizeUsage('free', false, { EGRESS: 7e9, DATABASE_SIZE: 2e8 }, [
        { ref: 'limitsco1', name: 'Limits Co Project 1', metric: 'EGRESS', usage: 4e9 },
        { ref: 'limitsco2', name: 'Limits Co Project 2', metric: 'EGRESS', usage: 3e9 },
      ]),
    );
    expect(usage.get('EGRESS')).toEqual({
      metric: 'EGRESS',
      usage: 7e9,
      usage_original: 7e9,
      unlimited: false,
      capped: true,
      pricing_free_units: 5e9,
      available_in_plan: true,
      cost: 0,
      pricing_strategy: 'NONE',
      unit_price_desc: '$0.09 per GB',
      project_allocations: [
        { ref: 'limitsco1', name: 'Limits Co Project 1', usage: 4e9 },
        { ref: 'limitsco2', name: 'Limits Co Project 2', usage: 3e9 },
      ],
    });
    expect(usage.get('MONTHLY_ACTIVE_SSO_USERS')).toMatchObject({
      available_in_plan: false,
      pricing_free_units: 0,
    });
  });

  it('costs the overage of a pay-as-you-go org like the invoice does', () => {
    const usage = byMetric(
      summarizeUsage('pro', true, { EGRESS: 300e9, MONTHLY_ACTIVE_USERS: 120_000 }, []),
    );
    expect(usage.get('EGRESS')).toMatchObject({
      capped: false,
      unlimited: true,
      cost: 450,
      pricing_strategy: 'UNIT',
    });
    expect(usage.get('MONTHLY_ACTIVE_USERS')).toMatchObject({
      cost: 6500,
      pricing_strategy: 'UNIT',
      unit_price_desc: '$0.00325 per MAU',
    });
    expect(usage.get('FUNCTION_INVOCATIONS')).toMatchObject({
      pricing_strategy: 'PACKAGE',
      unit_price_desc: '$2.00 per million',
    });
    expect(usage.get('MONTHLY_ACTIVE_SSO_USERS')).toMatchObject({ pricing_strategy: 'UNIT' });
  });

  it('keeps the unrounded usage beside the rounded one', () => {
    const usage = byMetric(summarizeUsage('pro', false, { DATABASE_SIZE: 1e9 / 3 }, []));
    expect(usage.get('DATABASE_SIZE')).toMatchObject({
      usage: 333_333_333.33,
      usage_original: 333_333_333.333333,
    });
  });

  it('counts per-project quotas over the projects and hours of the cycle', () => {
    const period = { start: 0, end: 30 * 86_400 };
    const usage = byMetric(
      summarizeUsage('pro', false, { DISK_SIZE_GB_HOURS_GP3: 12_520 }, [], {
        projectCount: 2,
        period,
      }),
    );
    expect(usage.get('DISK_SIZE_GB_HOURS_GP3')).toMatchObject({
      pricing_free_units: 11_520,
      capped: false,
      cost: 17,
    });
    expect(usage.get('DISK_IOPS_GP3')).toMatchObject({ pricing_free_units: 6000 });
  });
});

describe('usage warnings and the restriction rule', () => {
  const record = {
    metric: 'EGRESS' as const,
    usage: 0,
    unlimited: false,
    capped: true,
    pricing_free_units: 5e9,
  };

  it('warns from 80% of a quota, limited or billed beyond', () => {
    expect(isOverWarningThreshold({ ...record, usage: 3.99e9 })).toBe(false);
    expect(isOverWarningThreshold({ ...record, usage: 4e9 })).toBe(true);
    expect(isOverWarningThreshold({ ...record, usage: 3.99e9, unlimited: true })).toBe(false);
    expect(isOverWarningThreshold({ ...record, usage: 9e9, unlimited: true })).toBe(true);
    expect(isOverWarningThreshold({ ...record, usage: 9e9, pricing_free_units: 0 })).toBe(false);
  });

  it('lists capped metrics beyond their quota, never gp3 disk hours', () => {
    const records = summarizeUsage(
      'free',
      false,
      { EGRESS: 6e9, DATABASE_SIZE: 5e8, STORAGE_SIZE: 2e9 },
      [],
    );
    expect(exceededCappedMetrics(records)).toEqual(['EGRESS', 'STORAGE_SIZE']);
    expect(
      exceededCappedMetrics([{ ...record, metric: 'DISK_SIZE_GB_HOURS_GP3', usage: 1e12 }]),
    ).toEqual([]);
    expect(exceededCappedMetrics(summarizeUsage('pro', true, { EGRESS: 6e12 }, []))).toEqual([]);
  });
});
