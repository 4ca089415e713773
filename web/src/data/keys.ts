/**
 * Query keys, one factory per resource. Every key of a resource starts with its `all` family, so a
 * mutation can invalidate a whole family at once (see invalidation.ts).
 */
export const profileKeys = {
  all: ['profile'] as const,
  detail: () => [...profileKeys.all, 'detail'] as const,
};

export const organizationKeys = {
  all: ['organizations'] as const,
  list: () => [...organizationKeys.all, 'list'] as const,
  detail: (slug: string) => [...organizationKeys.all, 'detail', slug] as const,
};

export const projectKeys = {
  all: ['projects'] as const,
  list: (orgSlug: string) => [...projectKeys.all, 'list', orgSlug] as const,
  detail: (ref: string) => [...projectKeys.all, 'detail', ref] as const,
};

export const partnerLinkKeys = {
  all: ['partner-links'] as const,
  vercelInstallation: (installationId: string) =>
    [...partnerLinkKeys.all, 'vercel-installation', installationId] as const,
  awsMarketplace: (orgSlug: string) =>
    [...partnerLinkKeys.all, 'aws-marketplace', orgSlug] as const,
};

export const subscriptionKeys = {
  all: ['subscriptions'] as const,
  detail: (orgSlug: string) => [...subscriptionKeys.all, 'detail', orgSlug] as const,
};

export const planKeys = {
  all: ['plans'] as const,
  list: (orgSlug: string) => [...planKeys.all, 'list', orgSlug] as const,
};

export const invoiceKeys = {
  all: ['invoices'] as const,
  upcoming: (orgSlug: string) => [...invoiceKeys.all, 'upcoming', orgSlug] as const,
  /** Every page of an organization's past invoices: what a refresh of the list invalidates. */
  lists: (orgSlug: string) => [...invoiceKeys.all, 'list', orgSlug] as const,
  list: (orgSlug: string, offset: number, limit: number) =>
    [...invoiceKeys.lists(orgSlug), { offset, limit }] as const,
  count: (orgSlug: string) => [...invoiceKeys.all, 'count', orgSlug] as const,
  detail: (orgSlug: string, invoiceId: string) =>
    [...invoiceKeys.all, 'detail', orgSlug, invoiceId] as const,
  /** An invoice as its signed payment link shows it, to whoever holds the link. */
  payLink: (invoiceId: string, key: string) =>
    [...invoiceKeys.all, 'pay-link', invoiceId, key] as const,
};

export interface DailyUsageRange {
  /** YYYY-MM-DD, inclusive. */
  start: string;
  /** YYYY-MM-DD, inclusive. */
  end: string;
  projectRef?: string | null;
}

export const usageKeys = {
  all: ['usage'] as const,
  org: (orgSlug: string) => [...usageKeys.all, 'org', orgSlug] as const,
  daily: (orgSlug: string, range: DailyUsageRange) =>
    [
      ...usageKeys.all,
      'daily',
      orgSlug,
      { start: range.start, end: range.end, projectRef: range.projectRef ?? null },
    ] as const,
};

export const customerKeys = {
  all: ['customer'] as const,
  detail: (orgSlug: string) => [...customerKeys.all, 'detail', orgSlug] as const,
};

export const taxIdKeys = {
  all: ['tax-ids'] as const,
  detail: (orgSlug: string) => [...taxIdKeys.all, 'detail', orgSlug] as const,
};

export const paymentsConfigKeys = {
  all: ['payments-config'] as const,
  detail: () => [...paymentsConfigKeys.all, 'detail'] as const,
};

export const paymentMethodKeys = {
  all: ['payment-methods'] as const,
  list: (orgSlug: string) => [...paymentMethodKeys.all, 'list', orgSlug] as const,
};

export const subscriptionPreviewKeys = {
  all: ['subscription-previews'] as const,
  detail: (orgSlug: string, tier: string) =>
    [...subscriptionPreviewKeys.all, orgSlug, tier] as const,
};

export const spendCapPreviewKeys = {
  all: ['spend-cap-previews'] as const,
  detail: (orgSlug: string, spendCap: boolean) =>
    [...spendCapPreviewKeys.all, orgSlug, spendCap] as const,
};

export const entitlementKeys = {
  all: ['entitlements'] as const,
  detail: (orgSlug: string) => [...entitlementKeys.all, orgSlug] as const,
};

export const freeProjectLimitKeys = {
  all: ['members-reached-free-project-limit'] as const,
  detail: (orgSlug: string) => [...freeProjectLimitKeys.all, orgSlug] as const,
};

export const spendAlertKeys = {
  all: ['spend-alerts'] as const,
  detail: (orgSlug: string) => [...spendAlertKeys.all, 'detail', orgSlug] as const,
};

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: (orgSlug: string) => [...webhookKeys.all, 'list', orgSlug] as const,
  deliveries: (orgSlug: string, endpointId: string) =>
    [...webhookKeys.all, 'deliveries', orgSlug, endpointId] as const,
};

export const accessTokenKeys = {
  all: ['access-tokens'] as const,
  list: (orgSlug: string) => [...accessTokenKeys.all, 'list', orgSlug] as const,
};

/** Filters of the audit log as a key part: absent filters are left out, so equal filters share a key. */
export interface AuditLogKeyFilters {
  action?: string;
  actor?: string;
  since?: string;
  until?: string;
}

export const auditLogKeys = {
  all: ['audit-log'] as const,
  list: (orgSlug: string, filters: AuditLogKeyFilters) =>
    [...auditLogKeys.all, 'list', orgSlug, filters] as const,
};
