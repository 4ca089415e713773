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
