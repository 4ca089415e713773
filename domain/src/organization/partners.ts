export const MANAGED_BY = ['platform', 'vercel-marketplace', 'aws-marketplace'] as const;
export type ManagedBy = (typeof MANAGED_BY)[number];

export const BILLING_PARTNERS = ['aws', 'fly', 'vercel_marketplace'] as const;
export type BillingPartner = (typeof BILLING_PARTNERS)[number];

/** Organizations created through the deployment-platform integration carry this slug prefix. */
export const VERCEL_SLUG_PREFIX = 'vercel_icfg_';

export const MANAGED_BY_NAMES: Record<ManagedBy, string> = {
  platform: 'Meterline',
  'vercel-marketplace': 'Vercel',
  'aws-marketplace': 'AWS Marketplace',
};

export const BILLING_PARTNER_NAMES: Record<BillingPartner, string> = {
  aws: 'AWS',
  fly: 'Fly.io',
  vercel_marketplace: 'Vercel',
};

/** The slug prefix wins over the stored value, as the spec says. */
export function effectiveManagedBy(org: { slug: string; managed_by: ManagedBy }): ManagedBy {
  if (org.slug.startsWith(VERCEL_SLUG_PREFIX)) return 'vercel-marketplace';
  return org.managed_by;
}

export function isPartnerManaged(org: { slug: string; managed_by: ManagedBy }): boolean {
  return effectiveManagedBy(org) !== 'platform';
}
