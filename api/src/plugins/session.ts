import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import type { AccessCache } from './access-cache.ts';
import { deleteSession, insertSession, renewSession } from '../repositories/sessions.ts';

export const SESSION_COOKIE = 'ml_session';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, set by the access guard once the session is found live. */
    user: SessionUser | null;
    /** The hash of the session cookie's token, when the request carries one (live or not). */
    sessionId: string | null;
  }
  interface FastifyInstance {
    startSession(reply: FastifyReply, request: FastifyRequest, userId: string): Promise<void>;
    /**
     * Renews a session in use once half of its idle lifetime has passed (never past its maximum age):
     * moves its expiry and the cookie's. Answers the expiry it has now.
     */
    renewSession(
      request: FastifyRequest,
      reply: FastifyReply,
      session: { created_at: Date; expires_at: Date },
    ): Promise<Date>;
    endSession(reply: FastifyReply, request: FastifyRequest): Promise<void>;
  }
}

// Only a hash of the token is stored, so a leaked table cannot be replayed as cookies.
function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function cookieIsSecure(config: Config, request: FastifyRequest): boolean {
  if (config.COOKIE_SECURE === 'auto') return request.protocol === 'https';
  return config.COOKIE_SECURE === 'true';
}

/**
 * A Secure cookie is named `__Host-…`: browsers then accept it only from this host, Secure, on Path=/ and
 * without Domain, so neither a sibling subdomain nor a plain-http answer can plant or overwrite it. Over
 * plain http (development) the prefix is not allowed, so the plain name is used.
 */
export function cookieName(name: string, secure: boolean): string {
  return secure ? `__Host-${name}` : name;
}

export default fp(
  async function session(
    app: FastifyInstance,
    opts: { db: Db; config: Config; clock: Clock; accessCache: AccessCache | null },
  ) {
    const { db, config, clock, accessCache } = opts;
    app.decorateRequest('user', null);
    app.decorateRequest('sessionId', null);

    // Only the cookie is read here: the access guard looks the session up (with the caller's membership,
    // in one statement, on organization routes), so a request that needs no user costs no query.
    const sessionCookie = (request: FastifyRequest) =>
      cookieName(SESSION_COOKIE, cookieIsSecure(config, request));
    app.addHook('onRequest', async (request) => {
      // Only the name this request's security allows: over TLS, a plain-named cookie may have been planted.
      const token = request.cookies[sessionCookie(request)];
      if (token) request.sessionId = hashToken(token);
    });

    const idleMs = config.SESSION_TTL_HOURS * 3600 * 1000;
    const maxAgeMs = config.SESSION_MAX_HOURS * 3600 * 1000;
    const setSessionCookie = (
      request: FastifyRequest,
      reply: FastifyReply,
      token: string,
      expiresAt: Date,
    ) =>
      reply.setCookie(sessionCookie(request), token, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: cookieIsSecure(config, request),
        expires: expiresAt,
      });

    app.decorate(
      'startSession',
      async (reply: FastifyReply, request: FastifyRequest, userId: string) => {
        const token = randomBytes(32).toString('base64url');
        const now = clock.now();
        const expiresAt = new Date(now.getTime() + idleMs);
        await insertSession(db, { id: hashToken(token), userId, expiresAt, now });
        setSessionCookie(request, reply, token, expiresAt);
      },
    );

    app.decorate(
      'renewSession',
      async (
        request: FastifyRequest,
        reply: FastifyReply,
        session: { created_at: Date; expires_at: Date },
      ) => {
        const now = clock.now();
        const token = request.cookies[sessionCookie(request)];
        if (!token || !request.sessionId) return session.expires_at;
        // Renewing on every request would write on every request: once half the idle time has gone is enough.
        if (session.expires_at.getTime() - now.getTime() > idleMs / 2) return session.expires_at;
        const expiresAt = new Date(
          Math.min(now.getTime() + idleMs, session.created_at.getTime() + maxAgeMs),
        );
        if (expiresAt <= session.expires_at) return session.expires_at;
        await renewSession(db, request.sessionId, expiresAt, now);
        setSessionCookie(request, reply, token, expiresAt);
        return expiresAt;
      },
    );

    app.decorate('endSession', async (reply: FastifyReply, request: FastifyRequest) => {
      if (request.sessionId) {
        await deleteSession(db, request.sessionId);
        accessCache?.forgetSession(request.sessionId);
      }
      // The same attributes as when set: browsers refuse a __Host- cookie, even an expired one, without Secure.
      reply.clearCookie(sessionCookie(request), {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: cookieIsSecure(config, request),
      });
    });
  },
  { name: 'session', dependencies: ['@fastify/cookie'] },
);
