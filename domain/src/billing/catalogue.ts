import { ADDON_DEFINITIONS } from './addons.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import { COMPUTE_DEFINITIONS } from './compute.ts';
import { USAGE_METRIC_DEFINITIONS } from './metrics.ts';
import { QUOTA_DEFINITIONS } from './quotas.ts';

export * from './addons.ts';
export * from './addon-variants.ts';
export * from './billing-plans.ts';
export * from './compute.ts';
export * from './metrics.ts';
export * from './quotas.ts';
export * from './unit-price.ts';

/**
 * The one price list (pricing.md). Plan cards, the spend-cap rate table, the upcoming invoice, the
 * preview and the invoices are all computed from it; nothing else states a price.
 */
export const CATALOGUE = {
  plans: BILLING_PLANS,
  metrics: USAGE_METRIC_DEFINITIONS,
  quotas: QUOTA_DEFINITIONS,
  compute: COMPUTE_DEFINITIONS,
  addons: ADDON_DEFINITIONS,
} as const;
