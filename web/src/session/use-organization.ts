import { createContext, useContext } from 'react';
import type { Organization } from '@meterline/domain';

/** The organization of the current /org/:slug page, given by the organization layout. */
export const OrganizationContext = createContext<Organization | null>(null);

/** The organization of the current /org/:slug page; the layout renders pages only once it loaded. */
export function useOrganization(): Organization {
  const organization = useContext(OrganizationContext);
  if (!organization) throw new Error('useOrganization is for pages inside the organization layout');
  return organization;
}
