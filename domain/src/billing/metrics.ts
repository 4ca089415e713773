import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import { COMPUTE_METRICS } from './compute.ts';

/** The usage metrics of spec section 3 that the engine knows (the gp3 disk family, not io2). */
export const USAGE_METRICS = [
  'EGRESS',
  'CACHED_EGRESS',
  'DATABASE_SIZE',
  'STORAGE_SIZE',
  'MONTHLY_ACTIVE_USERS',
  'MONTHLY_ACTIVE_SSO_USERS',
  'MONTHLY_ACTIVE_THIRD_PARTY_USERS',
  'FUNCTION_INVOCATIONS',
  'STORAGE_IMAGES_TRANSFORMED',
  'REALTIME_MESSAGE_COUNT',
  'REALTIME_PEAK_CONNECTIONS',
  'DISK_SIZE_GB_HOURS_GP3',
  'DISK_IOPS_GP3',
  'DISK_THROUGHPUT_GP3',
  'LOG_DRAIN_EVENTS',
  'CUSTOM_DOMAIN',
  'IPV4',
  'PITR_7',
  'PITR_14',
  'PITR_28',
  'LOG_DRAIN',
  'AUTH_MFA_PHONE',
  'AUTH_MFA_WEB_AUTHN',
] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];
export const usageMetricSchema = documented(z.enum(USAGE_METRICS), { id: 'UsageMetric' });

export type MetricUnit =
  'bytes' | 'count' | 'hours' | 'gigabyte_hours' | 'iops' | 'megabytes_per_second';

/**
 * How the raw events of a cycle become its usage: sizes are billed on their average over the cycle
 * (GB-months), monthly active users on the distinct count, peaks on the maximum, all else on the sum.
 */
export type Aggregation = 'sum' | 'average' | 'distinct' | 'max';

/** The unit label of an invoice line (spec section 9); null where the line shows a plain count. */
export type InvoiceUnitLabel = 'GB' | 'Hours' | null;

export interface UsageMetricDefinition {
  readonly id: UsageMetric;
  readonly name: string;
  readonly unit: MetricUnit;
  readonly aggregation: Aggregation;
  readonly invoiceUnit: InvoiceUnitLabel;
}

function metric(
  id: UsageMetric,
  name: string,
  unit: MetricUnit,
  aggregation: Aggregation,
  invoiceUnit: InvoiceUnitLabel,
): UsageMetricDefinition {
  return { id, name, unit, aggregation, invoiceUnit };
}

export const USAGE_METRIC_DEFINITIONS: Readonly<Record<UsageMetric, UsageMetricDefinition>> = {
  EGRESS: metric('EGRESS', 'Egress', 'bytes', 'sum', 'GB'),
  CACHED_EGRESS: metric('CACHED_EGRESS', 'Cached Egress', 'bytes', 'sum', 'GB'),
  DATABASE_SIZE: metric('DATABASE_SIZE', 'Database Size', 'bytes', 'average', 'GB'),
  STORAGE_SIZE: metric('STORAGE_SIZE', 'Storage Size', 'bytes', 'average', 'GB'),
  MONTHLY_ACTIVE_USERS: metric(
    'MONTHLY_ACTIVE_USERS',
    'Monthly Active Users',
    'count',
    'distinct',
    null,
  ),
  MONTHLY_ACTIVE_SSO_USERS: metric(
    'MONTHLY_ACTIVE_SSO_USERS',
    'Monthly Active SSO Users',
    'count',
    'distinct',
    null,
  ),
  MONTHLY_ACTIVE_THIRD_PARTY_USERS: metric(
    'MONTHLY_ACTIVE_THIRD_PARTY_USERS',
    'Monthly Active Third-Party Users',
    'count',
    'distinct',
    null,
  ),
  FUNCTION_INVOCATIONS: metric(
    'FUNCTION_INVOCATIONS',
    'Edge Function Invocations',
    'count',
    'sum',
    null,
  ),
  STORAGE_IMAGES_TRANSFORMED: metric(
    'STORAGE_IMAGES_TRANSFORMED',
    'Storage Image Transformations',
    'count',
    'sum',
    null,
  ),
  REALTIME_MESSAGE_COUNT: metric(
    'REALTIME_MESSAGE_COUNT',
    'Realtime Messages',
    'count',
    'sum',
    null,
  ),
  REALTIME_PEAK_CONNECTIONS: metric(
    'REALTIME_PEAK_CONNECTIONS',
    'Realtime Peak Connections',
    'count',
    'max',
    null,
  ),
  DISK_SIZE_GB_HOURS_GP3: metric(
    'DISK_SIZE_GB_HOURS_GP3',
    'Disk Size GP3',
    'gigabyte_hours',
    'sum',
    null,
  ),
  DISK_IOPS_GP3: metric('DISK_IOPS_GP3', 'Disk IOPS GP3', 'iops', 'average', null),
  DISK_THROUGHPUT_GP3: metric(
    'DISK_THROUGHPUT_GP3',
    'Disk Throughput GP3',
    'megabytes_per_second',
    'average',
    null,
  ),
  LOG_DRAIN_EVENTS: metric('LOG_DRAIN_EVENTS', 'Log Drain Events', 'count', 'sum', null),
  CUSTOM_DOMAIN: metric('CUSTOM_DOMAIN', 'Custom Domain', 'hours', 'sum', 'Hours'),
  IPV4: metric('IPV4', 'Dedicated IPv4', 'hours', 'sum', 'Hours'),
  PITR_7: metric('PITR_7', 'Point-in-Time Recovery (7 days)', 'hours', 'sum', 'Hours'),
  PITR_14: metric('PITR_14', 'Point-in-Time Recovery (14 days)', 'hours', 'sum', 'Hours'),
  PITR_28: metric('PITR_28', 'Point-in-Time Recovery (28 days)', 'hours', 'sum', 'Hours'),
  LOG_DRAIN: metric('LOG_DRAIN', 'Log Drain', 'hours', 'sum', 'Hours'),
  AUTH_MFA_PHONE: metric('AUTH_MFA_PHONE', 'Phone MFA', 'hours', 'sum', 'Hours'),
  AUTH_MFA_WEB_AUTHN: metric('AUTH_MFA_WEB_AUTHN', 'WebAuthn MFA', 'hours', 'sum', 'Hours'),
};

/** Every metric an invoice line or a daily usage row may name: usage metrics and compute hours. */
export const BILLING_METRICS = [...USAGE_METRICS, ...COMPUTE_METRICS] as const;
export type BillingMetric = (typeof BILLING_METRICS)[number];
export const billingMetricSchema = documented(z.enum(BILLING_METRICS), { id: 'BillingMetric' });
