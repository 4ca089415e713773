import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { plainTextSchema, prefixedIdPattern, slugSchema } from './common.ts';

/**
 * Organization access tokens for the billing read API (product decisions §13). A token
 * is `mlt_` and 43 characters of base64url (32 random bytes); only its SHA-256 is stored. Its first
 * characters (the prefix) are kept in the clear so a list can tell tokens apart.
 */
export const ACCESS_TOKEN_PREFIX = 'mlt_';
/** How many characters of a token the list shows (with the `mlt_`). */
export const ACCESS_TOKEN_SHOWN_CHARACTERS = 12;
export const ACCESS_TOKEN_SCOPES = ['billing:read'] as const;
export type AccessTokenScope = (typeof ACCESS_TOKEN_SCOPES)[number];
/** The expiries a token can be given, in days; null: it never expires. */
export const ACCESS_TOKEN_EXPIRIES = [7, 30, 90, null] as const;
export type AccessTokenExpiry = (typeof ACCESS_TOKEN_EXPIRIES)[number];
export const ACCESS_TOKEN_NAME_MAX = 64;
/** Live (not revoked) tokens an organization may hold at once. */
export const MAX_ACCESS_TOKENS = 25;
/** Requests one token may make in a minute; past it, 429 until the minute is over. */
export const ACCESS_TOKEN_REQUESTS_PER_MINUTE = 120;

/** Whether a header value has the shape of one of our tokens (the guard then looks it up). */
export function isAccessTokenShaped(value: string): boolean {
  return /^mlt_[A-Za-z0-9_-]{43}$/.test(value);
}

/** The part of a token a list shows: "mlt_Ab12Cd34…". */
export function accessTokenPrefix(token: string): string {
  return token.slice(0, ACCESS_TOKEN_SHOWN_CHARACTERS);
}

const EXPIRY_MESSAGE = 'expires_in_days must be 7, 30, 90 or null (never)';

export const accessTokenCreateSchema = documented(
  z.strictObject({
    name: plainTextSchema('Name', ACCESS_TOKEN_NAME_MAX)
      .check(z.trim())
      .check(z.minLength(1, 'Name is required')),
    expires_in_days: documented(
      z.nullable(
        z
          .number({ error: EXPIRY_MESSAGE })
          .check(z.int(EXPIRY_MESSAGE))
          .check(z.gte(7, EXPIRY_MESSAGE))
          .check(z.lte(90, EXPIRY_MESSAGE))
          .check(
            z.refine(
              (days) => (ACCESS_TOKEN_EXPIRIES as readonly unknown[]).includes(days),
              EXPIRY_MESSAGE,
            ),
          ),
      ),
      { description: 'Days until it expires: 7, 30 or 90; null: never' },
    ) as z.ZodMiniType<AccessTokenExpiry>,
    scope: z._default(
      z.enum(ACCESS_TOKEN_SCOPES, { error: 'scope must be billing:read' }),
      'billing:read',
    ),
  }),
  { id: 'AccessTokenCreate' },
);
export type AccessTokenCreate = z.input<typeof accessTokenCreateSchema>;

export const accessTokenSchema = documented(
  z.object({
    id: z.string(),
    name: z.string(),
    scope: z.enum(ACCESS_TOKEN_SCOPES),
    /** The token's first characters, to tell it apart: "mlt_Ab12Cd34". */
    prefix: z.string(),
    /** Who created it; null once that member is gone. */
    created_by: z.nullable(z.string()),
    /** Unix seconds. */
    created_at: z.number().check(z.int()),
    /** Unix seconds of its last accepted request (counted to the minute); null: never used. */
    last_used_at: z.nullable(z.number().check(z.int())),
    /** Unix seconds; null: it never expires. */
    expires_at: z.nullable(z.number().check(z.int())),
  }),
  { id: 'AccessToken' },
);
export type AccessToken = z.infer<typeof accessTokenSchema>;

export const accessTokenListSchema = documented(z.object({ tokens: z.array(accessTokenSchema) }), {
  id: 'AccessTokenList',
});
export type AccessTokenList = z.infer<typeof accessTokenListSchema>;

export const accessTokenCreatedSchema = documented(
  z.object({
    token: accessTokenSchema,
    /** The token itself, answered this once: only its hash is kept. */
    secret: z.string(),
  }),
  { id: 'AccessTokenWithSecret' },
);
export type AccessTokenCreated = z.infer<typeof accessTokenCreatedSchema>;

export const accessTokenParamsSchema = z.object({
  slug: slugSchema,
  id: z
    .string()
    .check(z.maxLength(60, 'Access token not found'))
    .check(z.regex(prefixedIdPattern('tok'), 'Access token not found')),
});

/** "Expires Dec 24, 2026" / "Never expires" / "Expired": the list's words, from unix seconds. */
export function accessTokenExpiryState(
  expiresAt: number | null,
  nowSeconds: number,
): 'never' | 'expired' | 'active' {
  if (expiresAt === null) return 'never';
  return expiresAt <= nowSeconds ? 'expired' : 'active';
}
