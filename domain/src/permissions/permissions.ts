import type { Role } from './roles.ts';

/**
 * A permission is an action on a resource, written `action:resource`. The list is closed: the server
 * refuses to register a route whose permission is not one of these.
 */
export const PERMISSIONS = [
  'billing_read:subscriptions',
  'billing_read:customer',
  'billing_read:tax_ids',
  'billing_read:payment_methods',
  'billing_write:customer',
  'billing_write:subscriptions',
  'billing_write:payment_methods',
  'update:organizations',
  // Webhook endpoints: their URLs and delivery logs can name internal systems (decision 014).
  'billing_read:webhooks',
  'billing_write:webhooks',
  // Organization access tokens: their list and their creation and revocation.
  'billing_read:access_tokens',
  'billing_write:access_tokens',
  // The audit log: who changed what, from which address; owners and administrators only.
  'billing_read:audit_log',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const EVERYTHING: readonly Permission[] = PERMISSIONS;

const READ_ONLY: readonly Permission[] = ['billing_read:subscriptions'];

const DEVELOPER: readonly Permission[] = [
  'billing_read:subscriptions',
  'billing_read:customer',
  'billing_read:tax_ids',
  'billing_read:payment_methods',
];

/** The role matrix of the product decisions, as data. */
const GRANTS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(EVERYTHING),
  administrator: new Set(EVERYTHING),
  developer: new Set(DEVELOPER),
  read_only: new Set(READ_ONLY),
};

/** The single answer to "may this role do that". Unknown roles get nothing. */
export function hasPermission(role: Role | null | undefined, permission: Permission): boolean {
  if (!role) return false;
  return GRANTS[role]?.has(permission) ?? false;
}

/** The roles granted a permission (a query's filter on memberships). */
export function rolesWith(permission: Permission): Role[] {
  return (Object.keys(GRANTS) as Role[]).filter((role) => hasPermission(role, permission));
}

export function permissionsOf(role: Role): Permission[] {
  return PERMISSIONS.filter((permission) => hasPermission(role, permission));
}

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/**
 * What an access token's scope lets it call (product decisions §13): `billing:read` reads the billing
 * API as a developer would (invoices, subscription, usage, address, tax IDs, cards), and nothing else: no
 * write, and not the tokens, webhooks or records that only owners and administrators read.
 */
const TOKEN_SCOPES: Record<string, ReadonlySet<Permission>> = {
  'billing:read': new Set([
    'billing_read:subscriptions',
    'billing_read:customer',
    'billing_read:tax_ids',
    'billing_read:payment_methods',
  ]),
};

export function tokenScopeAllows(scope: string, method: string, permission: Permission): boolean {
  const method_ = method.toUpperCase();
  if (method_ !== 'GET' && method_ !== 'HEAD') return false;
  return TOKEN_SCOPES[scope]?.has(permission) ?? false;
}

export const TOKEN_REFUSED_MESSAGE =
  'An access token with the billing:read scope can only read billing data: sign in to do this';

/** "billing_write:payment_methods" -> "billing write on payment methods" */
export function describePermission(permission: Permission): string {
  const [action = '', resource = ''] = permission.split(':');
  return `${action.replaceAll('_', ' ')} on ${resource.replaceAll('_', ' ')}`;
}

export function missingPermissionMessage(permission: Permission): string {
  return `You do not have permission to do this: it needs ${describePermission(permission)}`;
}
