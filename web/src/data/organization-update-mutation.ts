import { organizationSchema, type Organization, type OrganizationUpdate } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * PATCH /platform/organizations/{slug} {name?, billing_email?, additional_billing_emails?}: answers
 * the updated organization. Needs update on organizations.
 */
export function updateOrganization(slug: string, body: OrganizationUpdate): Promise<Organization> {
  return apiFetch(`/platform/organizations/${segment(slug)}`, organizationSchema, {
    method: 'PATCH',
    body,
  });
}

export function useUpdateOrganizationMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.updateOrganization,
    mutationFn: (body: OrganizationUpdate) => updateOrganization(slug, body),
  });
}
