export const ROLES = ['owner', 'administrator', 'developer', 'read_only'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_NAMES: Record<Role, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  developer: 'Developer',
  read_only: 'Read-only',
};
