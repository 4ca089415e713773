import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import type { Cents } from '../money/cents.ts';
import { COMPUTE_DEFINITIONS, COMPUTE_SIZE_METRICS } from './compute.ts';

/** Project add-ons billed per hour, keyed by their usage metric. */
export const ADDON_METRICS = [
  'CUSTOM_DOMAIN',
  'IPV4',
  'PITR_7',
  'PITR_14',
  'PITR_28',
  'LOG_DRAIN',
  'AUTH_MFA_PHONE',
  'AUTH_MFA_WEB_AUTHN',
] as const;
export type AddonMetric = (typeof ADDON_METRICS)[number];
export function isAddonMetric(value: string): value is AddonMetric {
  return (ADDON_METRICS as readonly string[]).includes(value);
}
export const addonMetricSchema = documented(z.enum(ADDON_METRICS), { id: 'AddonMetric' });

/** The add-on types of a subscription's project_addons. */
export const ADDON_TYPES = [
  'compute_instance',
  'custom_domain',
  'ipv4',
  'pitr',
  'log_drain',
  'auth_mfa_phone',
  'auth_mfa_web_authn',
] as const;
export type AddonType = (typeof ADDON_TYPES)[number];

export interface AddonDefinition {
  readonly metric: AddonMetric;
  readonly type: AddonType;
  readonly identifier: string;
  readonly name: string;
  /** The monthly price of one project's add-on; billed per hour of the cycle. */
  readonly monthlyPriceCents: Cents;
  /**
   * Where the first project with the add-on pays a different price from the others (phone MFA:
   * $75 for the first project, $10 for each further one).
   */
  readonly firstProjectMonthlyPriceCents: Cents | null;
}

function addon(
  metric: AddonMetric,
  type: AddonType,
  identifier: string,
  name: string,
  monthlyPriceCents: Cents,
  firstProjectMonthlyPriceCents: Cents | null = null,
): AddonDefinition {
  return { metric, type, identifier, name, monthlyPriceCents, firstProjectMonthlyPriceCents };
}

export const ADDON_DEFINITIONS: Readonly<Record<AddonMetric, AddonDefinition>> = {
  CUSTOM_DOMAIN: addon('CUSTOM_DOMAIN', 'custom_domain', 'cd_default', 'Custom Domain', 1000),
  IPV4: addon('IPV4', 'ipv4', 'ipv4_default', 'Dedicated IPv4', 400),
  PITR_7: addon('PITR_7', 'pitr', 'pitr_7', 'Point-in-Time Recovery (7 days)', 10_000),
  PITR_14: addon('PITR_14', 'pitr', 'pitr_14', 'Point-in-Time Recovery (14 days)', 20_000),
  PITR_28: addon('PITR_28', 'pitr', 'pitr_28', 'Point-in-Time Recovery (28 days)', 40_000),
  LOG_DRAIN: addon('LOG_DRAIN', 'log_drain', 'log_drain_default', 'Log Drain', 6000),
  AUTH_MFA_PHONE: addon(
    'AUTH_MFA_PHONE',
    'auth_mfa_phone',
    'auth_mfa_phone_default',
    'Phone MFA',
    1000,
    7500,
  ),
  AUTH_MFA_WEB_AUTHN: addon(
    'AUTH_MFA_WEB_AUTHN',
    'auth_mfa_web_authn',
    'auth_mfa_web_authn_default',
    'WebAuthn MFA',
    0,
  ),
};

/** Every variant identifier a subscription may list: the hourly add-ons and the compute sizes. */
export const ADDON_VARIANT_IDENTIFIERS: readonly string[] = [
  ...ADDON_METRICS.map((metric) => ADDON_DEFINITIONS[metric].identifier),
  ...COMPUTE_SIZE_METRICS.flatMap((metric) => COMPUTE_DEFINITIONS[metric].addonIdentifier ?? []),
];

export function addonByIdentifier(identifier: string): AddonDefinition | null {
  const metric = ADDON_METRICS.find((m) => ADDON_DEFINITIONS[m].identifier === identifier);
  return metric ? ADDON_DEFINITIONS[metric] : null;
}
