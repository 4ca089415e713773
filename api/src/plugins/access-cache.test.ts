import { describe, expect, it } from 'vitest';
import { AccessCache, type SessionAccess } from './access-cache.ts';

const access: SessionAccess = {
  user_id: 'u1',
  email: 'owner@example.com',
  name: 'Owner',
  created_at: new Date(0),
  expires_at: new Date(Date.now() + 3600_000),
  organization_id: 'o1',
  role: 'owner',
};

describe('AccessCache', () => {
  it('forgets every answer when access changes', () => {
    const cache = new AccessCache(10_000);
    cache.set('s1', 'acme-pro', access, cache.epoch);
    cache.set('s2', '', access, cache.epoch);
    cache.clear();
    expect(cache.get('s1', 'acme-pro', new Date())).toBeUndefined();
    expect(cache.get('s2', '', new Date())).toBeUndefined();
  });

  it('does not keep an answer read before a change that committed while it was read', () => {
    const cache = new AccessCache(10_000);
    const epoch = cache.epoch;
    cache.clear();
    cache.set('s1', 'acme-pro', access, epoch);
    expect(cache.get('s1', 'acme-pro', new Date())).toBeUndefined();
    cache.set('s1', 'acme-pro', access, cache.epoch);
    expect(cache.get('s1', 'acme-pro', new Date())).toEqual(access);
  });
});
