import { createHash, randomBytes } from 'node:crypto';
import {
  rolesWith,
  ACCESS_TOKEN_PREFIX,
  ACCESS_TOKEN_REQUESTS_PER_MINUTE,
  accessTokenPrefix,
  isAccessTokenShaped,
} from '@meterline/domain';
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { AccessTokensTable } from '../db/schema.ts';

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
    // A token acts for the member who made it: once they left the organization, or may no longer manage
    // its tokens, it reads nothing more.
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('memberships')
          .select(sql`1`.as('one'))
          .whereRef('memberships.organization_id', '=', 'access_tokens.organization_id')
          .whereRef('memberships.user_id', '=', 'access_tokens.created_by')
          .where('memberships.role', 'in', rolesWith('billing_write:access_tokens')),
      ),
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

/** A token as its list shows it: the row and the email of who created it. */
export type AccessTokenRow = Selectable<AccessTokensTable> & { created_by_email: string | null };

/** The organization's tokens not revoked (expired ones included), newest first. */
export function listLiveAccessTokens(db: Db, organizationId: string): Promise<AccessTokenRow[]> {
  return db
    .selectFrom('access_tokens')
    .leftJoin('users', 'users.id', 'access_tokens.created_by')
    .selectAll('access_tokens')
    .select('users.email as created_by_email')
    .where('access_tokens.organization_id', '=', organizationId)
    .where('access_tokens.revoked_at', 'is', null)
    .orderBy('access_tokens.created_at', 'desc')
    .orderBy('access_tokens.id', 'desc')
    .execute();
}

/**
 * The organization's tokens that can still be used at `now` (neither revoked nor expired), counted with
 * the organization's row locked: two creations at once cannot both pass the count.
 */
export async function countUsableAccessTokensLocked(
  trx: Db,
  organizationId: string,
  now: Date,
): Promise<number> {
  await trx
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', organizationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const count = await trx
    .selectFrom('access_tokens')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

export function insertAccessToken(
  trx: Db,
  values: Insertable<AccessTokensTable>,
): Promise<Selectable<AccessTokensTable>> {
  return trx.insertInto('access_tokens').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Revokes one live token of the organization; undefined when there is none by that id. */
export function revokeAccessToken(trx: Db, organizationId: string, id: string, now: Date) {
  return trx
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning(['id', 'name', 'scope'])
    .executeTakeFirst();
}
