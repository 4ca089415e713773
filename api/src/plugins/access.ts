import {
  TOKEN_REFUSED_MESSAGE,
  hasPermission,
  missingPermissionMessage,
  slugSchema,
  tokenScopeAllows,
  type Permission,
  type Role,
} from '@meterline/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/database.ts';
import type { Clock } from '../clock.ts';
import type { AccessCache, SessionAccess } from './access-cache.ts';
import { findLiveSession, findLiveSessionInOrganization } from '../repositories/sessions.ts';
import { OperatorKeyCheck } from './operator-key.ts';
import type { RateLimitCounters } from '../repositories/rate-limits.ts';
import { bearerAccessToken, useAccessToken } from '../repositories/access-tokens.ts';
import { HttpError } from './errors.ts';
import { NOT_FOUND_ORG } from '../lib/failure.ts';

/**
 * Who may call a route. Every route under /platform must declare one; the server refuses to start otherwise,
 * so a forgotten check is a crash at boot, not an open door.
 */
export type Access =
  /**
   * Anyone. With `identify`, a live session's user is still known to the route (and to its per-user
   * rate limit); without a session the route runs all the same.
   */
  | { kind: 'public'; identify?: boolean }
  | { kind: 'user' }
  /** A member of the organization in the `slug` path parameter, holding the permission. */
  | { kind: 'org'; permission: Permission }
  /** Operator calls authenticated by the metering key. */
  | { kind: 'operator' };

export interface OrgContext {
  organizationId: string;
  slug: string;
  /** The member's role; null when an access token calls (its scope decided instead). */
  role: Role | null;
}

/** The access token a request was made with. */
export interface RequestToken {
  id: string;
  name: string;
  scope: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    org: OrgContext | null;
    accessToken: RequestToken | null;
  }
}

export const TOKEN_NOT_VALID = 'The access token is not valid: it is unknown, expired or revoked';

export default fp(
  async function access(
    app: FastifyInstance,
    opts: {
      db: Db;
      clock: Clock;
      operatorKey: string | undefined;
      /** Where wrong operator keys are counted, for every process on the database. */
      counters: RateLimitCounters;
      /** Only for a single-process store (see AccessCache). */
      cache: AccessCache | null;
    },
  ) {
    const { db, clock, operatorKey, counters, cache } = opts;
    app.decorateRequest('org', null);
    app.decorateRequest('accessToken', null);
    const operatorKeyCheck = new OperatorKeyCheck(operatorKey, counters, () => clock.now());

    app.addHook('onRoute', (route) => {
      const guarded = route.url.startsWith('/platform') || route.url.startsWith('/internal');
      const isDocs = route.url.startsWith('/platform/docs');
      const access = (route.config as { access?: Access } | undefined)?.access;
      if (guarded && !isDocs && !access) {
        throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
      }
      if (access?.kind === 'org' && !route.url.includes(':slug')) {
        throw new Error(`Route ${route.url} checks an organization permission but has no :slug`);
      }
    });

    /** The live session and, for a slug, the caller's membership there: one statement, or the cache. */
    async function lookUp(
      request: FastifyRequest,
      reply: FastifyReply,
      sessionId: string,
      slug: string,
    ): Promise<SessionAccess | undefined> {
      const now = clock.now();
      const epoch = cache?.epoch ?? 0;
      let found = cache?.get(sessionId, slug, now);
      if (!found) {
        found = slug
          ? await findLiveSessionInOrganization(db, sessionId, now, slug)
          : await findLiveSession(db, sessionId, now).then(
              (row) => row && { ...row, organization_id: null, role: null },
            );
        if (!found) return undefined;
        cache?.set(sessionId, slug, found, epoch);
      }
      const expiresAt = await app.renewSession(request, reply, found);
      if (expiresAt !== found.expires_at) {
        // Renewed: what is kept about the session carries its new expiry.
        found = { ...found, expires_at: expiresAt };
        cache?.set(sessionId, slug, found, epoch);
      }
      return found;
    }

    /**
     * A request with `Authorization: Bearer`: the token is looked up, counted and its use recorded in one
     * statement (repositories/access-tokens), then held to its organization and its scope. An unknown,
     * expired or revoked token is 401; another organization's slug is 404, as for a stranger; anything
     * its scope does not read (every write, the tokens, webhooks and records) is 403.
     */
    async function acceptToken(request: FastifyRequest, access: Access): Promise<void> {
      const token = bearerAccessToken(request.headers.authorization);
      const use = token
        ? await useAccessToken(db, token, clock.now())
        : { kind: 'refused' as const };
      if (use.kind === 'refused') throw new HttpError(401, TOKEN_NOT_VALID);
      if (use.kind === 'limited') {
        throw new HttpError(
          429,
          'Too many requests with this access token. Please try again later.',
          {
            'retry-after': String(use.retryAfterSeconds),
          },
        );
      }
      if (access.kind !== 'org') throw new HttpError(403, TOKEN_REFUSED_MESSAGE);
      const slug = (request.params as { slug: string }).slug;
      const badSlug = slugSchema.safeParse(slug).error;
      if (badSlug) throw new HttpError(400, badSlug.issues[0]?.message ?? 'Slug is not valid');
      if (use.slug !== slug) throw new HttpError(404, NOT_FOUND_ORG);
      if (!tokenScopeAllows(use.scope, request.method, access.permission)) {
        throw new HttpError(403, TOKEN_REFUSED_MESSAGE);
      }
      request.accessToken = { id: use.id, name: use.name, scope: use.scope };
      request.org = { organizationId: use.organizationId, slug, role: null };
    }

    // preValidation: who may call is settled before the input is even looked at.
    app.addHook('preValidation', async (request, reply) => {
      const access = request.routeOptions.config.access;
      if (!access) return;
      if (access.kind === 'public') {
        if (access.identify && request.sessionId) {
          const found = await lookUp(request, reply, request.sessionId, '');
          if (found) request.user = { id: found.user_id, email: found.email, name: found.name };
        }
        return;
      }
      if (access.kind === 'operator') {
        const verdict = await operatorKeyCheck.verify(request.headers.authorization, request.ip);
        if (verdict === 'accepted') return;
        if (verdict === 'refused') throw new HttpError(401, 'A valid operator key is required');
        throw new HttpError(429, 'Too many wrong operator keys. Please try again later.', {
          'retry-after': String(verdict.retryAfter),
        });
      }
      // A bearer token speaks for itself: the session cookie that may come with it is not looked at.
      if (/^Bearer\s/i.test(request.headers.authorization ?? '')) {
        await acceptToken(request, access);
        return;
      }
      const sessionId = request.sessionId;
      if (!sessionId) throw new HttpError(401, 'You need to sign in');
      // Organization routes always have a :slug (checked when the route is added).
      const slug = access.kind === 'org' ? (request.params as { slug: string }).slug : '';
      // The guard looks the slug up before validation runs: a malformed one (a NUL, which PostgreSQL
      // refuses) is the 400 validation would give, not a failed query.
      const badSlug = access.kind === 'org' ? slugSchema.safeParse(slug).error : undefined;
      if (badSlug) throw new HttpError(400, badSlug.issues[0]?.message ?? 'Slug is not valid');
      const found = await lookUp(request, reply, sessionId, slug);
      if (!found) throw new HttpError(401, 'You need to sign in');
      request.user = { id: found.user_id, email: found.email, name: found.name };
      if (access.kind === 'user') return;

      const { role, organization_id: organizationId } = found;
      // Outsiders learn nothing: an organization they are not in does not exist for them.
      if (!role || !organizationId) throw new HttpError(404, NOT_FOUND_ORG);
      if (!hasPermission(role, access.permission)) {
        throw new HttpError(403, missingPermissionMessage(access.permission));
      }
      request.org = { organizationId, slug, role };
    });
  },
  { name: 'access', dependencies: ['session'] },
);
