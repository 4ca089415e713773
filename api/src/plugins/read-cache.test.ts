import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.ts';

const answer = (body: string) => ({ body, contentType: 'application/json', headers: {} });
const S = 1_790_000_000;

/** Looks `key` up in `second`, then keeps `body` for it if nothing was kept, as a request does. */
function fill(cache: ReadCache, key: string, org: string, body: string, second = S) {
  cache.get(key, org, second);
  return cache.set(key, org, cache.versionOf(org), second, answer(body));
}

describe('ReadCache', () => {
  it('keeps an answer until its organization changes, and only that organization', () => {
    const cache = new ReadCache();
    fill(cache, 'a', 'org-1', 'one');
    fill(cache, 'b', 'org-2', 'two');
    expect(cache.get('a', 'org-1', S)?.body).toBe('one');
    cache.changed('org-1');
    expect(cache.get('a', 'org-1', S)).toBeUndefined();
    expect(cache.get('b', 'org-2', S)?.body).toBe('two');
  });

  it('keeps answers for their second only', () => {
    const cache = new ReadCache();
    fill(cache, 'a', 'org', 'one');
    expect(cache.get('a', 'org', S + 1)).toBeUndefined();
    expect(cache.size).toBe(0);
    // An answer computed in a second that has passed by the time it is done is not kept.
    expect(cache.set('a', 'org', cache.versionOf('org'), S, answer('late'))).toBe(false);
  });

  it('does not keep an answer read while its organization changed', () => {
    const cache = new ReadCache();
    cache.get('a', 'org-1', S);
    const started = cache.versionOf('org-1');
    // A write commits between the read's statements: the answer may mix before and after.
    cache.changed('org-1');
    expect(cache.set('a', 'org-1', started, S, answer('mixed'))).toBe(false);
    expect(cache.get('a', 'org-1', S)).toBeUndefined();
  });

  it('forgets everything when every organization changed, reads in flight included', () => {
    const cache = new ReadCache();
    const started = cache.versionOf('org-2');
    fill(cache, 'a', 'org-1', 'one');
    cache.changed('');
    expect(cache.get('a', 'org-1', S)).toBeUndefined();
    expect(cache.set('b', 'org-2', started, S, answer('late'))).toBe(false);
    // Versions never repeat across a clear: an organization changed once before it is not confused.
    cache.changed('org-3');
    const afterOne = cache.versionOf('org-3');
    cache.changed('');
    cache.changed('org-3');
    expect(cache.versionOf('org-3')).not.toBe(afterOne);
  });

  it('holds a bounded number of answers, of bounded length, and of organizations', () => {
    const cache = new ReadCache(2, 10, 3);
    for (const key of ['a', 'b', 'c']) fill(cache, key, 'org', key);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 'org', S)).toBeUndefined();
    expect(fill(cache, 'big', 'org', 'x'.repeat(11))).toBe(false);
    fill(cache, 'kept', 'org-0', 'zero');
    for (const org of ['org-1', 'org-2', 'org-3', 'org-4']) cache.changed(org);
    // Past three organizations counted, the counts start again: nothing kept survives that.
    expect(cache.get('kept', 'org-0', S)).toBeUndefined();
    expect(cache.versionOf('org-1')).not.toBe('0.1');
  });

  it('lets concurrent requests wait for one computation, unless a write came meanwhile', async () => {
    const cache = new ReadCache();
    const settle = cache.startFill('a', cache.versionOf('org'));
    const waiting = cache.pending('a', 'org');
    expect(waiting).toBeDefined();
    settle(answer('one'));
    expect((await waiting)?.body).toBe('one');
    expect(cache.pending('a', 'org')).toBeUndefined();

    const second = cache.startFill('b', cache.versionOf('org'));
    cache.changed('org');
    // Started before the write: nobody arriving after it waits for that answer.
    expect(cache.pending('b', 'org')).toBeUndefined();
    second(undefined);
  });
});
