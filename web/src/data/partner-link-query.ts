import { effectiveManagedBy, partnerLinkSchema, type Organization } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { partnerLinkKeys } from './keys';

type LinkedOrganization = Pick<Organization, 'slug' | 'managed_by' | 'partner_id'>;

interface PartnerLinkRequest {
  queryKey: readonly string[];
  path: string;
}

/**
 * Where this organization's partner link is looked up: the deployment platform by installation
 * id (the org's partner_id), the cloud provider by org slug. Null when there is nothing to look up.
 */
export function partnerLinkRequest(org: LinkedOrganization | undefined): PartnerLinkRequest | null {
  if (!org) return null;
  switch (effectiveManagedBy(org)) {
    case 'vercel-marketplace':
      if (!org.partner_id) return null;
      return {
        queryKey: partnerLinkKeys.vercelInstallation(org.partner_id),
        path: `/platform/integrations/vercel/installations/${segment(org.partner_id)}/link`,
      };
    case 'aws-marketplace':
      return {
        queryKey: partnerLinkKeys.awsMarketplace(org.slug),
        path: `/platform/organizations/${segment(org.slug)}/cloud-marketplace/link`,
      };
    case 'platform':
      return null;
  }
}

export const partnerLinkQueryOptions = (org: LinkedOrganization | undefined) => {
  const request = partnerLinkRequest(org);
  return queryOptions({
    queryKey: request?.queryKey ?? [...partnerLinkKeys.all, 'none'],
    queryFn: ({ signal }) => {
      if (!request) throw new Error('This organization has no partner link');
      return apiFetch(request.path, partnerLinkSchema, { signal });
    },
    enabled: request !== null,
    staleTime: 10 * 60 * 1000,
  });
};

/** The partner's console link of a partner-managed organization (the banner's "Manage"). */
export function usePartnerLinkQuery(org: LinkedOrganization | undefined) {
  return useQuery(partnerLinkQueryOptions(org));
}
