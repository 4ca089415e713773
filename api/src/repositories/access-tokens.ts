import { createHash, randomBytes } from 'node:crypto';
import {
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_REQUESTS_PER_MINUTE,
  accessTokenPrefix,
  isAccessTokenShaped,
} from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

const WINDOW_MS = 60_000;

/** A new token: `mlt_` and 32 random bytes. Only its hash is ever stored. */
export function newAccessToken(): { token: string; hash: string; prefix: string } {
  const token = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashAccessToken(token), prefix: accessTokenPrefix(token) };
}

export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newAccessTokenId(): string {
  return `tok_${randomBytes(12).toString('hex')}`;
}

/** The token of an `Authorization: Bearer mlt_…` header; null for any other header (or none). */
export function bearerAccessToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  const token = match?.[1];
  return token && isAccessTokenShaped(token) ? token : null;
}

export type TokenUse =
  | {
      kind: 'accepted';
      id: string;
      name: string;
      organizationId: string;
      slug: string;
      scope: string;
    }
  | { kind: 'limited'; retryAfterSeconds: number }
  | { kind: 'refused' };

/**
 * One request made with a token: in one UPDATE, the token is found live (not revoked, not expired), its
 * request is counted in the current minute's window, and its last use is recorded. Concurrent requests
 * are each counted exactly once (the row is locked by the update), in every process. A token over its
 * limit is `limited` and its request is counted all the same: hammering does not reopen the window.
 */
export async function useAccessToken(db: Db, token: string, now: Date): Promise<TokenUse> {
  const windowStart = new Date(now.getTime() - WINDOW_MS);
  const row = await db
    .updateTable('access_tokens')
    .from('organizations')
    .set({
      window_requests: sql<number>`CASE WHEN access_tokens.window_started_at > ${windowStart}
        THEN access_tokens.window_requests + 1 ELSE 1 END`,
      window_started_at: sql<Date>`CASE WHEN access_tokens.window_started_at > ${windowStart}
        THEN access_tokens.window_started_at ELSE ${now}::timestamptz END`,
      last_used_at: now,
    })
    .whereRef('organizations.id', '=', 'access_tokens.organization_id')
    .where('access_tokens.token_hash', '=', hashAccessToken(token))
    .where('access_tokens.revoked_at', 'is', null)
    .where((eb) =>
      eb.or([eb('access_tokens.expires_at', 'is', null), eb('access_tokens.expires_at', '>', now)]),
    )
    .returning([
      'access_tokens.id',
      'access_tokens.name',
      'access_tokens.scope',
      'access_tokens.organization_id',
      'access_tokens.window_started_at',
      'access_tokens.window_requests',
      'organizations.slug',
    ])
    .executeTakeFirst();
  if (!row) return { kind: 'refused' };
  if (row.window_requests > ACCESS_TOKEN_REQUESTS_PER_MINUTE) {
    const started = row.window_started_at?.getTime() ?? now.getTime();
    const retryAfterSeconds = Math.max(1, Math.ceil((started + WINDOW_MS - now.getTime()) / 1000));
    return { kind: 'limited', retryAfterSeconds };
  }
  return {
    kind: 'accepted',
    id: row.id,
    name: row.name,
    organizationId: row.organization_id,
    slug: row.slug,
    scope: row.scope,
  };
}
