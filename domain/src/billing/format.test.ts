import { describe, expect, it } from 'vitest';
import {
  billingMetricName,
  formatAverageHours,
  formatGigabytes,
  formatHours,
  formatUsage,
  usageFigureNote,
} from './format.ts';

describe('usage display', () => {
  it('shows sizes in GB with two decimals', () => {
    expect(formatGigabytes(0)).toBe('0.00');
    expect(formatGigabytes(1)).toBe('<0.01');
    expect(formatGigabytes(9_999_999)).toBe('<0.01');
    expect(formatGigabytes(10_000_000)).toBe('0.01');
    expect(formatGigabytes(1_234_567_890_123)).toBe('1,234.57');
    expect(formatUsage('EGRESS', 5e9)).toBe('5.00 GB');
  });

  it('shows hours with two decimals, whole or not, wherever they appear', () => {
    expect(formatHours(290)).toBe('290.00 hours');
    expect(formatHours(297.9666)).toBe('297.97 hours');
    expect(formatHours(12.5)).toBe('12.50 hours');
    expect(formatHours(0)).toBe('0.00 hours');
    expect(formatHours(-0)).toBe('0.00 hours');
    expect(formatHours(0.004)).toBe('0.00 hours');
    expect(formatHours(1_234.5)).toBe('1,234.50 hours');
    expect(formatAverageHours(12.5)).toBe('(avg 12.50 hours)');
    expect(formatAverageHours(720)).toBe('(avg 720.00 hours)');
    expect(formatUsage('COMPUTE_HOURS_XS', 360)).toBe('360.00 hours');
    expect(formatUsage('COMPUTE_HOURS_BRANCH', 22.5)).toBe('22.50 hours');
    expect(formatUsage('CUSTOM_DOMAIN', 1.256)).toBe('1.26 hours');
    expect(formatUsage('IPV4', 720)).toBe('720.00 hours');
  });

  it('shows counts and other units', () => {
    expect(formatUsage('MONTHLY_ACTIVE_USERS', 120_000)).toBe('120,000');
    expect(formatUsage('DISK_SIZE_GB_HOURS_GP3', 17_280)).toBe('17,280 GB-hours');
    expect(formatUsage('DISK_IOPS_GP3', 9_000)).toBe('9,000 IOPS');
    expect(formatUsage('DISK_THROUGHPUT_GP3', 375)).toBe('375 MB/s');
  });

  it('names compute metrics by size', () => {
    expect(billingMetricName('COMPUTE_HOURS_XS')).toBe('Micro');
    expect(billingMetricName('COMPUTE_HOURS_16XL')).toBe('16XL');
    expect(billingMetricName('COMPUTE_HOURS_BRANCH')).toBe('Branching');
    expect(billingMetricName('EGRESS')).toBe('Egress');
  });

  it("says when a figure is the cycle's average or peak, and nothing for totals", () => {
    expect(usageFigureNote('DATABASE_SIZE')).toBe('Average over the billing cycle so far');
    expect(usageFigureNote('STORAGE_SIZE')).toBe('Average over the billing cycle so far');
    expect(usageFigureNote('REALTIME_PEAK_CONNECTIONS')).toBe('Peak in the billing cycle so far');
    expect(usageFigureNote('EGRESS')).toBeNull();
    expect(usageFigureNote('COMPUTE_HOURS_XS')).toBeNull();
  });
});
