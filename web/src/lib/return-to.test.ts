import { describe, expect, it } from 'vitest';
import { safeReturnTo, signInPath } from './return-to';

describe('safeReturnTo', () => {
  it.each([
    '/',
    '/org/acme-pro/billing',
    '/org/_/billing?setup=1#payment-methods',
    '/pay/invoices/in_123?org=acme-pro',
    '/org/acme-pro/usage?search=a%20b',
    '/sign-in-help',
  ])('follows the app path %j', (path) => {
    expect(safeReturnTo(path)).toBe(path);
  });

  it.each([
    null,
    '',
    'org/acme-pro',
    'https://evil.com',
    'javascript:alert(1)',
    '//evil.com',
    '/\\evil.com',
    '/\\\\evil.com',
    '/org/\\evil.com',
    '/\t/evil.com',
    '/\n/evil.com',
    '/\r\n/evil.com',
    '/\t\\evil.com',
    '/org\u0000',
    '/org\u007f',
    '/org\u0085',
    '/%09/evil.com',
    '/%0A/evil.com',
    '/%5C%5Cevil.com',
    '/%5Cevil.com',
    '/%2F/evil.com',
    '/%2f%2fevil.com',
    '/%E0%A4%A',
    '/sign-in',
    '/sign-in?returnTo=%2F',
    '/sign-in#top',
    '/./sign-in',
  ])('refuses %j', (value) => {
    expect(safeReturnTo(value)).toBeNull();
  });

  it('round-trips what the sign-in link carries', () => {
    const path = '/org/acme-pro/billing?panel=plan#invoices';
    const link = new URL(signInPath(path), 'https://meterline.invalid');
    expect(safeReturnTo(link.searchParams.get('returnTo'))).toBe(path);
  });
});
