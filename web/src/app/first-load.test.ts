import { afterEach, describe, expect, it } from 'vitest';
import { rememberRoles } from '../lib/last-organization';
import { createQueryClient, JUST_READ_MS, refetchOnMount } from '../data/query-client';
import {
  customerKeys,
  invoiceKeys,
  organizationKeys,
  paymentMethodKeys,
  profileKeys,
  subscriptionKeys,
  taxIdKeys,
} from '../data/keys';
import { firstLoadReads } from './first-load';

/** The query keys the first load of `pathname` starts, each with its request left pending. */
function startedKeys(pathname: string): string[] {
  const client = createQueryClient();
  const never = () => new Promise<never>(() => undefined);
  const original = globalThis.fetch;
  globalThis.fetch = never;
  try {
    for (const read of firstLoadReads(pathname)) void read(client);
  } finally {
    globalThis.fetch = original;
  }
  return client
    .getQueryCache()
    .getAll()
    .map((query) => JSON.stringify(query.queryKey));
}

describe('the first load', () => {
  it('starts the billing page’s reads together, from the address alone', () => {
    const keys = startedKeys('/org/acme-pro/billing');
    for (const key of [
      profileKeys.detail(),
      organizationKeys.list(),
      organizationKeys.detail('acme-pro'),
      subscriptionKeys.detail('acme-pro'),
      invoiceKeys.upcoming('acme-pro'),
      invoiceKeys.count('acme-pro'),
      customerKeys.detail('acme-pro'),
    ]) {
      expect(keys).toContain(JSON.stringify(key));
    }
  });

  it('reads only what another page needs, and nothing on the sign-in and payment pages', () => {
    const usage = startedKeys('/org/acme-pro/usage');
    expect(usage).toContain(JSON.stringify(organizationKeys.detail('acme-pro')));
    expect(usage).not.toContain(JSON.stringify(subscriptionKeys.detail('acme-pro')));
    expect(startedKeys('/sign-in')).toEqual([]);
    expect(startedKeys('/pay/invoices/in_1')).toEqual([]);
    expect(startedKeys('/')).toEqual([JSON.stringify(profileKeys.detail())]);
  });

  it('does not ask again for an answer just read, unless a write made it stale', () => {
    const client = createQueryClient();
    client.setQueryData(profileKeys.detail(), null);
    const query = client.getQueryCache().find({ queryKey: profileKeys.detail() });
    if (!query) throw new Error('the profile is in the cache');
    expect(refetchOnMount(query)).toBe(false);
    query.setState({ ...query.state, dataUpdatedAt: Date.now() - JUST_READ_MS - 1 });
    expect(refetchOnMount(query)).toBe(true);
    query.setState({ ...query.state, dataUpdatedAt: Date.now(), isInvalidated: true });
    expect(refetchOnMount(query)).toBe(true);
  });

  describe('the reads the role guards', () => {
    afterEach(() => window.localStorage.clear());
    const guarded = [
      customerKeys.detail('acme-pro'),
      paymentMethodKeys.list('acme-pro'),
      taxIdKeys.detail('acme-pro'),
    ].map((key) => JSON.stringify(key));

    it('are left out for a role the profile last said may not read them', () => {
      rememberRoles([{ slug: 'acme-pro', role: 'read_only' }]);
      const keys = startedKeys('/org/acme-pro/billing');
      for (const key of guarded) expect(keys).not.toContain(key);
      expect(keys).toContain(JSON.stringify(subscriptionKeys.detail('acme-pro')));
    });

    it('are started for a role that may read them, and when the role is not known yet', () => {
      rememberRoles([{ slug: 'acme-pro', role: 'developer' }]);
      for (const key of guarded) expect(startedKeys('/org/acme-pro/billing')).toContain(key);
      // Another organization's role says nothing about this one.
      rememberRoles([{ slug: 'acme-team', role: 'read_only' }]);
      for (const key of guarded) expect(startedKeys('/org/acme-pro/billing')).toContain(key);
    });
  });
});
