import type { PlanId } from '../organization/plans.ts';
import type { UsageMetric } from './metrics.ts';
import type { UnitPrice } from './unit-price.ts';

/** The usage metrics that have an included quota and an overage price (pricing.md). */
export const QUOTA_METRICS = [
  'EGRESS',
  'CACHED_EGRESS',
  'DATABASE_SIZE',
  'STORAGE_SIZE',
  'MONTHLY_ACTIVE_USERS',
  'MONTHLY_ACTIVE_THIRD_PARTY_USERS',
  'MONTHLY_ACTIVE_SSO_USERS',
  'STORAGE_IMAGES_TRANSFORMED',
  'FUNCTION_INVOCATIONS',
  'REALTIME_PEAK_CONNECTIONS',
  'REALTIME_MESSAGE_COUNT',
  'DISK_SIZE_GB_HOURS_GP3',
  'DISK_IOPS_GP3',
  'DISK_THROUGHPUT_GP3',
  'LOG_DRAIN_EVENTS',
] as const satisfies readonly UsageMetric[];
export type QuotaMetric = (typeof QUOTA_METRICS)[number];

/**
 * What a plan includes, in the metric's unit. `organization` quotas are per cycle for the whole
 * organization; `project` quotas are per project; `project_hour` quotas are per project for every
 * hour of the cycle (8 GB of disk per project is 8 GB-hours per project-hour). Null: not available.
 */
export interface Quota {
  readonly included: number;
  readonly scope: 'organization' | 'project' | 'project_hour';
}

export interface QuotaDefinition {
  readonly metric: QuotaMetric;
  readonly price: UnitPrice;
  /** The spend cap stops billing for it (it is limited instead). */
  readonly capped: boolean;
  /**
   * How the price is stated to people ("per GB", "per 1,000"), with the units it counts, and whether
   * that is one unit of measure (a GB, a user: UNIT) or a package of them (a million: PACKAGE).
   */
  readonly priceUnit: {
    readonly label: string;
    /** What a billable quantity of that unit is written with: "59.85 GB", "0.5 million". */
    readonly quantityLabel: string;
    readonly units: number;
    readonly strategy: 'UNIT' | 'PACKAGE';
  };
  readonly free: Quota | null;
  /** Pro, team and enterprise share these quotas. */
  readonly paid: Quota | null;
}

const GB = 1_000_000_000;
const org = (included: number): Quota => ({ included, scope: 'organization' });

function quota(
  metric: QuotaMetric,
  price: UnitPrice,
  priceUnit: QuotaDefinition['priceUnit'],
  free: Quota | null,
  paid: Quota | null,
  capped = true,
): QuotaDefinition {
  return { metric, price, capped, priceUnit, free, paid };
}

const perGb = { label: 'per GB', quantityLabel: 'GB', units: GB, strategy: 'UNIT' } as const;
const perUser = { label: 'per MAU', quantityLabel: 'MAU', units: 1, strategy: 'UNIT' } as const;
const perMillion = {
  label: 'per million',
  quantityLabel: 'million',
  units: 1_000_000,
  strategy: 'PACKAGE',
} as const;
const perThousand = {
  label: 'per 1,000',
  quantityLabel: 'thousand',
  units: 1000,
  strategy: 'PACKAGE',
} as const;

export const QUOTA_DEFINITIONS: Readonly<Record<QuotaMetric, QuotaDefinition>> = {
  EGRESS: quota('EGRESS', { cents: 9, per: GB }, perGb, org(5 * GB), org(250 * GB)),
  CACHED_EGRESS: quota('CACHED_EGRESS', { cents: 3, per: GB }, perGb, org(5 * GB), org(250 * GB)),
  DATABASE_SIZE: quota(
    'DATABASE_SIZE',
    { cents: 125, per: 10 * GB },
    perGb,
    org(GB / 2),
    org(8 * GB),
  ),
  STORAGE_SIZE: quota('STORAGE_SIZE', { cents: 21, per: 10 * GB }, perGb, org(GB), org(100 * GB)),
  MONTHLY_ACTIVE_USERS: quota(
    'MONTHLY_ACTIVE_USERS',
    { cents: 325, per: 1000 },
    perUser,
    org(50_000),
    org(100_000),
  ),
  MONTHLY_ACTIVE_THIRD_PARTY_USERS: quota(
    'MONTHLY_ACTIVE_THIRD_PARTY_USERS',
    { cents: 325, per: 1000 },
    perUser,
    org(50),
    org(50),
  ),
  MONTHLY_ACTIVE_SSO_USERS: quota(
    'MONTHLY_ACTIVE_SSO_USERS',
    { cents: 15, per: 10 },
    perUser,
    null,
    org(50),
  ),
  STORAGE_IMAGES_TRANSFORMED: quota(
    'STORAGE_IMAGES_TRANSFORMED',
    { cents: 500, per: 1000 },
    perThousand,
    null,
    org(100),
  ),
  FUNCTION_INVOCATIONS: quota(
    'FUNCTION_INVOCATIONS',
    { cents: 200, per: 1_000_000 },
    perMillion,
    org(500_000),
    org(2_000_000),
  ),
  REALTIME_PEAK_CONNECTIONS: quota(
    'REALTIME_PEAK_CONNECTIONS',
    { cents: 1000, per: 1000 },
    perThousand,
    org(200),
    org(500),
  ),
  REALTIME_MESSAGE_COUNT: quota(
    'REALTIME_MESSAGE_COUNT',
    { cents: 250, per: 1_000_000 },
    perMillion,
    org(2_000_000),
    org(5_000_000),
  ),
  DISK_SIZE_GB_HOURS_GP3: quota(
    'DISK_SIZE_GB_HOURS_GP3',
    { cents: 171, per: 10_000 },
    { label: 'per GB-hour', quantityLabel: 'GB-hours', units: 1, strategy: 'UNIT' },
    null,
    { included: 8, scope: 'project_hour' },
    false,
  ),
  DISK_IOPS_GP3: quota(
    'DISK_IOPS_GP3',
    { cents: 24, per: 10 },
    { label: 'per IOPS-month', quantityLabel: 'IOPS', units: 1, strategy: 'UNIT' },
    null,
    { included: 3000, scope: 'project' },
    false,
  ),
  DISK_THROUGHPUT_GP3: quota(
    'DISK_THROUGHPUT_GP3',
    { cents: 95, per: 10 },
    { label: 'per MB/s-month', quantityLabel: 'MB/s', units: 1, strategy: 'UNIT' },
    null,
    { included: 125, scope: 'project' },
    false,
  ),
  LOG_DRAIN_EVENTS: quota(
    'LOG_DRAIN_EVENTS',
    { cents: 20, per: 1_000_000 },
    perMillion,
    null,
    org(0),
    false,
  ),
};

export function quotaFor(planId: PlanId, metric: QuotaMetric): Quota | null {
  const definition = QUOTA_DEFINITIONS[metric];
  return planId === 'free' ? definition.free : definition.paid;
}

export function isQuotaMetric(value: string): value is QuotaMetric {
  return (QUOTA_METRICS as readonly string[]).includes(value);
}
