import { describe, expect, it } from 'vitest';
import {
  PERMISSIONS,
  describePermission,
  tokenScopeAllows,
  hasPermission,
  isPermission,
  missingPermissionMessage,
  permissionsOf,
  type Permission,
} from './permissions.ts';
import { ROLES, type Role } from './roles.ts';

// The matrix of product-decisions.md section 2, typed out independently of the implementation.
const MATRIX: Record<Permission, Record<Role, boolean>> = {
  'billing_read:subscriptions': {
    owner: true,
    administrator: true,
    developer: true,
    read_only: true,
  },
  'billing_read:customer': { owner: true, administrator: true, developer: true, read_only: false },
  'billing_read:tax_ids': { owner: true, administrator: true, developer: true, read_only: false },
  'billing_read:payment_methods': {
    owner: true,
    administrator: true,
    developer: true,
    read_only: false,
  },
  'billing_write:customer': {
    owner: true,
    administrator: true,
    developer: false,
    read_only: false,
  },
  'billing_write:subscriptions': {
    owner: true,
    administrator: true,
    developer: false,
    read_only: false,
  },
  'billing_write:payment_methods': {
    owner: true,
    administrator: true,
    developer: false,
    read_only: false,
  },
  'update:organizations': { owner: true, administrator: true, developer: false, read_only: false },
  'billing_read:webhooks': { owner: true, administrator: true, developer: false, read_only: false },
  'billing_write:webhooks': {
    owner: true,
    administrator: true,
    developer: false,
    read_only: false,
  },
  'billing_read:access_tokens': {
    owner: true,
    administrator: true,
    developer: false,
    read_only: false,
  },
  'billing_write:access_tokens': {
    owner: true,
    administrator: true,
    developer: false,
    read_only: false,
  },
  'billing_read:audit_log': {
    owner: true,
    administrator: true,
    developer: false,
    read_only: false,
  },
};

describe('hasPermission', () => {
  for (const permission of PERMISSIONS) {
    for (const role of ROLES) {
      const expected = MATRIX[permission][role];
      it(`${role} ${expected ? 'may' : 'may not'} ${permission}`, () => {
        expect(hasPermission(role, permission)).toBe(expected);
      });
    }
  }

  it('denies when there is no role', () => {
    for (const permission of PERMISSIONS) {
      expect(hasPermission(null, permission)).toBe(false);
      expect(hasPermission(undefined, permission)).toBe(false);
    }
  });

  it('denies an unknown role', () => {
    expect(hasPermission('billing_admin' as Role, 'billing_read:subscriptions')).toBe(false);
  });
});

describe('permissionsOf', () => {
  it('lists exactly the granted permissions', () => {
    expect(permissionsOf('read_only')).toEqual(['billing_read:subscriptions']);
    expect(permissionsOf('owner')).toEqual([...PERMISSIONS]);
    expect(permissionsOf('developer')).not.toContain('billing_write:customer');
  });
});

describe('describing permissions', () => {
  it('names the action and the resource', () => {
    expect(describePermission('billing_write:payment_methods')).toBe(
      'billing write on payment methods',
    );
    expect(missingPermissionMessage('update:organizations')).toContain('update on organizations');
  });

  it('recognises only known permissions', () => {
    expect(isPermission('billing_read:customer')).toBe(true);
    expect(isPermission('billing_read:everything')).toBe(false);
  });
});

describe('what an access token may call', () => {
  it('reads the billing API a developer reads, and nothing else', () => {
    for (const permission of PERMISSIONS) {
      const read = tokenScopeAllows('billing:read', 'GET', permission);
      expect(read).toBe(
        permission.startsWith('billing_read:') && hasPermission('developer', permission),
      );
      expect(tokenScopeAllows('billing:read', 'head', permission)).toBe(read);
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        expect(tokenScopeAllows('billing:read', method, permission)).toBe(false);
      }
    }
  });

  it('does not read the audit log, which names members and their addresses (decision 018)', () => {
    expect(tokenScopeAllows('billing:read', 'GET', 'billing_read:audit_log')).toBe(false);
  });

  it('grants nothing to an unknown scope', () => {
    expect(tokenScopeAllows('billing:write', 'GET', 'billing_read:subscriptions')).toBe(false);
  });
});
