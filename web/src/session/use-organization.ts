import type { Organization } from '@meterline/domain';
import { useOutletContext } from 'react-router';

export interface OrganizationOutletContext {
  organization: Organization;
}

/** The organization of the current /org/:slug page; the layout renders pages only once it loaded. */
export function useOrganization(): Organization {
  return useOutletContext<OrganizationOutletContext>().organization;
}
