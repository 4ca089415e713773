import { describe, expect, it } from 'vitest';
import { resolvePlaceholderSlug } from './last-organization';

describe('resolvePlaceholderSlug', () => {
  const memberOf = [{ slug: 'aws-co' }, { slug: 'acme-pro' }];

  it('prefers the last visited organization while the user belongs to it', () => {
    expect(resolvePlaceholderSlug(memberOf, 'acme-pro')).toBe('acme-pro');
    expect(resolvePlaceholderSlug(memberOf, 'gone-co')).toBe('aws-co');
    expect(resolvePlaceholderSlug(memberOf, null)).toBe('aws-co');
  });

  it('has nothing to offer a user without organizations', () => {
    expect(resolvePlaceholderSlug([], 'acme-pro')).toBeNull();
  });
});
