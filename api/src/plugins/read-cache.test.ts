import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.ts';

const answer = (body: string) => ({ body, contentType: 'application/json', headers: {} });

describe('ReadCache', () => {
  it('keeps an answer until its organization changes, and only that organization', () => {
    const cache = new ReadCache();
    cache.set('a', 'org-1', cache.versionOf('org-1'), answer('one'));
    cache.set('b', 'org-2', cache.versionOf('org-2'), answer('two'));
    expect(cache.get('a', 'org-1')?.body).toBe('one');
    cache.changed('org-1');
    expect(cache.get('a', 'org-1')).toBeUndefined();
    expect(cache.get('b', 'org-2')?.body).toBe('two');
  });

  it('does not keep an answer read while its organization changed', () => {
    const cache = new ReadCache();
    const started = cache.versionOf('org-1');
    // A write commits between the read's statements: the answer may mix before and after.
    cache.changed('org-1');
    cache.set('a', 'org-1', started, answer('mixed'));
    expect(cache.get('a', 'org-1')).toBeUndefined();
  });

  it('forgets everything when every organization changed, reads in flight included', () => {
    const cache = new ReadCache();
    const started = cache.versionOf('org-2');
    cache.set('a', 'org-1', cache.versionOf('org-1'), answer('one'));
    cache.changed('');
    expect(cache.get('a', 'org-1')).toBeUndefined();
    cache.set('b', 'org-2', started, answer('late'));
    expect(cache.get('b', 'org-2')).toBeUndefined();
    // Versions never repeat across a clear: an organization changed once before it is not confused.
    cache.changed('org-3');
    const afterOne = cache.versionOf('org-3');
    cache.changed('');
    cache.changed('org-3');
    expect(cache.versionOf('org-3')).not.toBe(afterOne);
  });

  it('holds a bounded number of answers, of bounded size', () => {
    const cache = new ReadCache(2, 10);
    for (const key of ['a', 'b', 'c']) cache.set(key, 'org', cache.versionOf('org'), answer(key));
    expect(cache.size).toBe(2);
    expect(cache.get('a', 'org')).toBeUndefined();
    cache.set('big', 'org', cache.versionOf('org'), answer('x'.repeat(11)));
    expect(cache.get('big', 'org')).toBeUndefined();
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
