import { USAGE_METRIC_DEFINITIONS } from '../metrics.ts';
import { QUOTA_DEFINITIONS, quotaFor, type QuotaMetric } from '../quotas.ts';
import { formatPriceDollars } from '../unit-price.ts';

/** The resources the spend cap covers (spec §3), in the spec's order. */
export const SPEND_CAP_RESOURCES = [
  'database',
  'auth',
  'storage',
  'realtime',
  'edge_functions',
] as const;
export type SpendCapResource = (typeof SPEND_CAP_RESOURCES)[number];

export const SPEND_CAP_RESOURCE_NAMES: Readonly<Record<SpendCapResource, string>> = {
  database: 'Database',
  auth: 'Auth',
  storage: 'Storage',
  realtime: 'Realtime',
  edge_functions: 'Edge Functions',
};

/**
 * The capped metrics of each resource. Egress is counted once for the whole organization, whichever
 * service sends it; it is listed with the database, whose API serves most of it.
 */
export const SPEND_CAP_RESOURCE_METRICS: Readonly<
  Record<SpendCapResource, readonly QuotaMetric[]>
> = {
  database: ['DATABASE_SIZE', 'EGRESS', 'CACHED_EGRESS'],
  auth: ['MONTHLY_ACTIVE_USERS', 'MONTHLY_ACTIVE_THIRD_PARTY_USERS', 'MONTHLY_ACTIVE_SSO_USERS'],
  storage: ['STORAGE_SIZE', 'STORAGE_IMAGES_TRANSFORMED'],
  realtime: ['REALTIME_PEAK_CONNECTIONS', 'REALTIME_MESSAGE_COUNT'],
  edge_functions: ['FUNCTION_INVOCATIONS'],
};

export interface SpendCapRate {
  readonly metric: QuotaMetric;
  readonly name: string;
  /** Pro's included quota, in the metric's unit. */
  readonly included: number;
  /** "$0.09 per GB": what usage beyond the quota costs with the cap off. */
  readonly price: string;
}

export interface SpendCapResourceRates {
  readonly resource: SpendCapResource;
  readonly name: string;
  readonly rates: readonly SpendCapRate[];
}

/** The spend cap panel's rate table, from the catalogue: each resource with its prices beyond quota. */
export function spendCapRateTable(): SpendCapResourceRates[] {
  return SPEND_CAP_RESOURCES.map((resource) => ({
    resource,
    name: SPEND_CAP_RESOURCE_NAMES[resource],
    rates: SPEND_CAP_RESOURCE_METRICS[resource].map((metric) => {
      const definition = QUOTA_DEFINITIONS[metric];
      const price = formatPriceDollars(definition.price, definition.priceUnit.units);
      return {
        metric,
        name: USAGE_METRIC_DEFINITIONS[metric].name,
        included: quotaFor('pro', metric)?.included ?? 0,
        price: `${price} ${definition.priceUnit.label}`,
      };
    }),
  }));
}
