import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import type { ComputeSize } from '../organization/projects.ts';
import type { UnitPrice } from './unit-price.ts';

/** Compute metrics by size, in ascending order. */
export const COMPUTE_SIZE_METRICS = [
  'COMPUTE_HOURS_XS',
  'COMPUTE_HOURS_SM',
  'COMPUTE_HOURS_MD',
  'COMPUTE_HOURS_L',
  'COMPUTE_HOURS_XL',
  'COMPUTE_HOURS_2XL',
  'COMPUTE_HOURS_4XL',
  'COMPUTE_HOURS_8XL',
  'COMPUTE_HOURS_12XL',
  'COMPUTE_HOURS_16XL',
] as const;
export type ComputeSizeMetric = (typeof COMPUTE_SIZE_METRICS)[number];

export const COMPUTE_METRICS = [...COMPUTE_SIZE_METRICS, 'COMPUTE_HOURS_BRANCH'] as const;
export type ComputeMetric = (typeof COMPUTE_METRICS)[number];
export const computeMetricSchema = documented(z.enum(COMPUTE_METRICS), { id: 'ComputeMetric' });

export interface ComputeDefinition {
  readonly metric: ComputeMetric;
  readonly name: string;
  readonly memoryGb: number;
  readonly cpu: string;
  /** Per hour; the "per month" column of the price list is marketing rounding of about 730 hours. */
  readonly hourlyPrice: UnitPrice;
  /** The compute-instance add-on variant that selects this size (subscription project_addons). */
  readonly addonIdentifier: string | null;
}

function size(
  metric: ComputeMetric,
  name: string,
  memoryGb: number,
  cores: number,
  hourlyPrice: UnitPrice,
  addonIdentifier: string | null,
): ComputeDefinition {
  return { metric, name, memoryGb, cpu: `${cores}-core ARM`, hourlyPrice, addonIdentifier };
}

const MICRO_HOURLY: UnitPrice = { cents: 1344, per: 1000 };

export const COMPUTE_DEFINITIONS: Readonly<Record<ComputeMetric, ComputeDefinition>> = {
  COMPUTE_HOURS_XS: size('COMPUTE_HOURS_XS', 'Micro', 1, 2, MICRO_HOURLY, 'ci_micro'),
  COMPUTE_HOURS_SM: size('COMPUTE_HOURS_SM', 'Small', 2, 2, { cents: 206, per: 100 }, 'ci_small'),
  COMPUTE_HOURS_MD: size('COMPUTE_HOURS_MD', 'Medium', 4, 2, { cents: 822, per: 100 }, 'ci_medium'),
  COMPUTE_HOURS_L: size('COMPUTE_HOURS_L', 'Large', 8, 2, { cents: 1517, per: 100 }, 'ci_large'),
  COMPUTE_HOURS_XL: size('COMPUTE_HOURS_XL', 'XL', 16, 4, { cents: 2877, per: 100 }, 'ci_xlarge'),
  COMPUTE_HOURS_2XL: size('COMPUTE_HOURS_2XL', '2XL', 32, 8, { cents: 562, per: 10 }, 'ci_2xlarge'),
  COMPUTE_HOURS_4XL: size('COMPUTE_HOURS_4XL', '4XL', 64, 16, { cents: 132, per: 1 }, 'ci_4xlarge'),
  COMPUTE_HOURS_8XL: size(
    'COMPUTE_HOURS_8XL',
    '8XL',
    128,
    32,
    { cents: 2562, per: 10 },
    'ci_8xlarge',
  ),
  COMPUTE_HOURS_12XL: size(
    'COMPUTE_HOURS_12XL',
    '12XL',
    192,
    48,
    { cents: 3836, per: 10 },
    'ci_12xlarge',
  ),
  COMPUTE_HOURS_16XL: size(
    'COMPUTE_HOURS_16XL',
    '16XL',
    256,
    64,
    { cents: 512, per: 1 },
    'ci_16xlarge',
  ),
  // Branches run on Micro and are billed at its rate, under their own metric.
  COMPUTE_HOURS_BRANCH: size('COMPUTE_HOURS_BRANCH', 'Branching', 1, 2, MICRO_HOURLY, null),
};

/**
 * The metric a project of this size is billed under. Nano is the free instance; on a paid plan it
 * is billed as Micro, as the platform the price list follows does.
 */
export const COMPUTE_SIZE_METRIC: Readonly<Record<ComputeSize, ComputeSizeMetric>> = {
  nano: 'COMPUTE_HOURS_XS',
  micro: 'COMPUTE_HOURS_XS',
  small: 'COMPUTE_HOURS_SM',
  medium: 'COMPUTE_HOURS_MD',
  large: 'COMPUTE_HOURS_L',
  xlarge: 'COMPUTE_HOURS_XL',
  '2xlarge': 'COMPUTE_HOURS_2XL',
  '4xlarge': 'COMPUTE_HOURS_4XL',
  '8xlarge': 'COMPUTE_HOURS_8XL',
  '12xlarge': 'COMPUTE_HOURS_12XL',
  '16xlarge': 'COMPUTE_HOURS_16XL',
};

export function computeMetricForSize(size: ComputeSize): ComputeSizeMetric {
  return COMPUTE_SIZE_METRIC[size];
}

/** "Micro", "Small", ... "16XL", and "Branching" for branch hours. */
export function computeDisplayName(metric: ComputeMetric): string {
  return COMPUTE_DEFINITIONS[metric].name;
}

export function isComputeMetric(value: string): value is ComputeMetric {
  return (COMPUTE_METRICS as readonly string[]).includes(value);
}
