/** Feature flags of the billing area; all on unless listed in DISABLED_FEATURES. */
export const FEATURES = [
  'billing',
  'invoices',
  'payment_methods',
  'credits',
  'billing_account_data',
] as const;
export type Feature = (typeof FEATURES)[number];

export function isFeature(value: string): value is Feature {
  return (FEATURES as readonly string[]).includes(value);
}

export function isFeatureEnabled(disabled: readonly Feature[], feature: Feature): boolean {
  return !disabled.includes(feature);
}
