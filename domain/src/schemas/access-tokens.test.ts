import { describe, expect, it } from 'vitest';
import {
  accessTokenCreateSchema,
  accessTokenExpiryState,
  accessTokenParamsSchema,
  accessTokenPrefix,
  isAccessTokenShaped,
} from './access-tokens.ts';

const firstMessage = (input: unknown) =>
  accessTokenCreateSchema.safeParse(input).error?.issues[0]?.message;

describe('creating an access token', () => {
  it('takes a name, one of the expiries and the read scope', () => {
    expect(
      accessTokenCreateSchema.parse({ name: ' Finance export ', expires_in_days: 30 }),
    ).toEqual({ name: 'Finance export', expires_in_days: 30, scope: 'billing:read' });
    expect(
      accessTokenCreateSchema.parse({ name: 'ci', expires_in_days: null }).expires_in_days,
    ).toBe(null);
  });

  it('names the field of every mistake', () => {
    expect(firstMessage({ name: '  ', expires_in_days: 7 })).toBe('Name is required');
    expect(firstMessage({ name: 'x'.repeat(65), expires_in_days: 7 })).toBe(
      'Name must be at most 64 characters',
    );
    expect(firstMessage({ name: 'a\u0000b', expires_in_days: 7 })).toBe(
      'Name must not contain control characters',
    );
    for (const expiry of [0, 1, 31, 7.5, -7, '30', undefined, 1e308]) {
      expect(firstMessage({ name: 'ok', expires_in_days: expiry })).toBe(
        'expires_in_days must be 7, 30, 90 or null (never)',
      );
    }
    expect(firstMessage({ name: 'ok', expires_in_days: 7, scope: 'billing:write' })).toBe(
      'scope must be billing:read',
    );
    expect(
      accessTokenCreateSchema.safeParse({ name: 'ok', expires_in_days: 7, admin: true }).success,
    ).toBe(false);
  });
});

describe('the token itself', () => {
  it('is recognised by its shape, and listed by its first characters', () => {
    const token = `mlt_${'A'.repeat(43)}`;
    expect(isAccessTokenShaped(token)).toBe(true);
    expect(isAccessTokenShaped(`${token}A`)).toBe(false);
    expect(isAccessTokenShaped('Bearer abc')).toBe(false);
    expect(accessTokenPrefix(token)).toBe('mlt_AAAAAAAA');
  });

  it('is addressed by a tok_ id', () => {
    expect(accessTokenParamsSchema.safeParse({ slug: 'acme-pro', id: 'tok_abc123' }).success).toBe(
      true,
    );
    expect(
      accessTokenParamsSchema.safeParse({ slug: 'acme-pro', id: "1' or 1=1" }).error?.issues[0]
        ?.message,
    ).toBe('Access token not found');
  });

  it('expires at its time, or never', () => {
    expect(accessTokenExpiryState(null, 100)).toBe('never');
    expect(accessTokenExpiryState(100, 100)).toBe('expired');
    expect(accessTokenExpiryState(101, 100)).toBe('active');
  });
});
