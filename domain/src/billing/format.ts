import type { BillingMetric } from './metrics.ts';
import { USAGE_METRIC_DEFINITIONS, type MetricUnit } from './metrics.ts';
import { COMPUTE_DEFINITIONS, isComputeMetric } from './compute.ts';

const twoDecimals = new Intl.NumberFormat('en-US', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const upToTwoDecimals = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** Bytes as GB with two decimals (1 GB = 1e9 bytes); "<0.01" for a size above zero that rounds away. */
export function formatGigabytes(bytes: number): string {
  const gigabytes = bytes / 1e9;
  if (gigabytes > 0 && gigabytes < 0.01) return '<0.01';
  return twoDecimals.format(gigabytes);
}

/**
 * Hours, everywhere they are shown (compute, add-ons, averages): always two decimals, the precision
 * the invoice computes quantities with, so 290 hours and 297.97 hours line up in one column and a
 * reader never wonders whether "290" was rounded. Negative zero shows as 0.00.
 */
export function formatHours(hours: number): string {
  return `${twoDecimals.format(hours === 0 ? 0 : hours)} hours`;
}

/** "(avg 12.50 hours)": the average hours shown beside an hours metric. */
export function formatAverageHours(hours: number): string {
  return `(avg ${formatHours(hours)})`;
}

/** "Micro", "Small", ... for compute metrics; the catalogue's name for the others. */
export function billingMetricName(metric: BillingMetric): string {
  return isComputeMetric(metric)
    ? COMPUTE_DEFINITIONS[metric].name
    : USAGE_METRIC_DEFINITIONS[metric].name;
}

/** The unit written after a plain usage value; sizes are GB and counts have none. */
const UNIT_SUFFIX: Partial<Record<MetricUnit, string>> = {
  gigabyte_hours: ' GB-hours',
  iops: ' IOPS',
  megabytes_per_second: ' MB/s',
};

/** A usage value in its display unit: GB for sizes, hours, GB-hours, IOPS and MB/s, plain counts. */
export function formatUsage(metric: BillingMetric, usage: number): string {
  if (isComputeMetric(metric)) return formatHours(usage);
  const { unit } = USAGE_METRIC_DEFINITIONS[metric];
  if (unit === 'bytes') return `${formatGigabytes(usage)} GB`;
  if (unit === 'hours') return formatHours(usage);
  return `${upToTwoDecimals.format(usage)}${UNIT_SUFFIX[unit] ?? ''}`;
}

/**
 * What a metric's usage figure is when it is not a plain total: sizes and rates are billed on their
 * average over the cycle, so "4.20 GB" is the cycle's average size, not today's; null for totals.
 */
export function usageFigureNote(metric: BillingMetric): string | null {
  if (isComputeMetric(metric)) return null;
  const { aggregation } = USAGE_METRIC_DEFINITIONS[metric];
  if (aggregation === 'average') return 'Average over the billing cycle so far';
  if (aggregation === 'max') return 'Peak in the billing cycle so far';
  return null;
}
