import { createContext, use } from 'react';
import type { Profile, Role } from '@meterline/domain';

/** The signed-in user's profile; provided by RequireAuth, so every page below it has one. */
export const ProfileContext = createContext<Profile | null>(null);

export function useProfile(): Profile {
  const profile = use(ProfileContext);
  if (!profile) throw new Error('useProfile is only available below RequireAuth');
  return profile;
}

/** The user's role in an organization, or null when the profile does not list it. */
export function useOrganizationRole(slug: string): Role | null {
  return useProfile().organizations.find((org) => org.slug === slug)?.role ?? null;
}
