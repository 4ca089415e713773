import { effectiveManagedBy, type Organization } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch, segment } from './api-client';
import { partnerLinkKeys } from './keys';

// Not in the domain yet: the lead is asked to move it there beside the API route.
export const partnerLinkSchema = z.object({ url: z.string().min(1) });
export type PartnerLink = z.infer<typeof partnerLinkSchema>;

/** The deployment-platform link is looked up by installation id (the org's partner_id). */
export const vercelInstallationLinkQueryOptions = (installationId: string) =>
  queryOptions({
    queryKey: partnerLinkKeys.vercelInstallation(installationId),
    queryFn: ({ signal }) =>
      apiFetch(
        `/platform/integrations/vercel/installations/${segment(installationId)}/link`,
        partnerLinkSchema,
        { signal },
      ),
    staleTime: 10 * 60 * 1000,
  });

/** The cloud-provider link is looked up by org slug. */
export const awsMarketplaceLinkQueryOptions = (orgSlug: string) =>
  queryOptions({
    queryKey: partnerLinkKeys.awsMarketplace(orgSlug),
    queryFn: ({ signal }) =>
      apiFetch(
        `/platform/organizations/${segment(orgSlug)}/cloud-marketplace/link`,
        partnerLinkSchema,
        { signal },
      ),
    staleTime: 10 * 60 * 1000,
  });

type LinkedOrganization = Pick<Organization, 'slug' | 'managed_by' | 'partner_id'>;

/** The options for this organization's partner link, or null when there is none to look up. */
export function partnerLinkQueryOptions(org: LinkedOrganization | undefined) {
  if (!org) return null;
  switch (effectiveManagedBy(org)) {
    case 'vercel-marketplace':
      return org.partner_id ? vercelInstallationLinkQueryOptions(org.partner_id) : null;
    case 'aws-marketplace':
      return awsMarketplaceLinkQueryOptions(org.slug);
    case 'platform':
      return null;
  }
}

/** The "Manage" link of a partner-managed organization; disabled for everyone else. */
export function usePartnerLinkQuery(org: LinkedOrganization | undefined) {
  const options = partnerLinkQueryOptions(org);
  return useQuery({
    queryKey: options?.queryKey ?? [...partnerLinkKeys.all, 'none'],
    queryFn: options?.queryFn ?? (() => Promise.resolve({ url: '' })),
    staleTime: options?.staleTime,
    enabled: options !== null,
  });
}
