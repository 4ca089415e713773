import Tokens from '@fastify/csrf';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { HttpError } from './errors.ts';
import { cookieIsSecure, cookieName } from './session.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';
export const CSRF_COOKIE = 'ml_csrf';

// No user info in the token: the secret cookie is per browser, and the token is fetched before sign-in.
const tokens = new Tokens({});

/**
 * Double-submit protection for every browser mutation: the secret lives in an httpOnly cookie, the token
 * derived from it travels in a header that another site cannot set. Operator routes use a bearer key, not
 * cookies, so they need none. The cookie's name follows the session cookie's (`__Host-` when Secure), which
 * a library with one fixed cookie name could not do, hence the token library itself.
 */
export default fp(
  async function csrfProtection(app: FastifyInstance, opts: { config: Config }) {
    const { config } = opts;
    const cookieOf = (reply: FastifyReply) => {
      const secure = cookieIsSecure(config, reply.request);
      return {
        name: cookieName(CSRF_COOKIE, secure),
        options: { path: '/', httpOnly: true, sameSite: 'strict', secure } as const,
      };
    };

    // After the access guard (this plugin depends on it, so its hook runs later): a signed-out caller learns
    // it must sign in (401) and a non-member that the organization does not exist (404), not that a token
    // is missing; the token is still checked before any handler runs.
    app.addHook('preValidation', async (request, reply) => {
      const { access, signedWebhook } = request.routeOptions.config ?? {};
      // A provider's webhook is no browser: its signature authenticates it.
      if (
        SAFE_METHODS.has(request.method) ||
        access?.kind === 'operator' ||
        !access ||
        signedWebhook
      ) {
        return;
      }
      const secret = request.cookies[cookieOf(reply).name];
      if (!secret) throw new HttpError(403, 'Missing csrf secret');
      const token = request.headers[CSRF_HEADER];
      if (typeof token !== 'string' || !tokens.verify(secret, token)) {
        throw new HttpError(403, 'Invalid csrf token');
      }
    });

    app.decorate('issueCsrfToken', (reply: FastifyReply) => {
      const { name, options } = cookieOf(reply);
      let secret = reply.request.cookies[name];
      if (!secret) {
        secret = tokens.secretSync();
        reply.setCookie(name, secret, options);
      }
      return tokens.create(secret);
    });

    app.decorate('renewCsrfSecret', (reply: FastifyReply) => {
      const { name, options } = cookieOf(reply);
      reply.setCookie(name, tokens.secretSync(), options);
    });
  },
  { name: 'csrf', dependencies: ['@fastify/cookie', 'access'] },
);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route verifies a provider's signature on the raw body (and needs no CSRF token). */
    signedWebhook?: boolean;
  }
  interface FastifyInstance {
    issueCsrfToken(reply: FastifyReply): string;
    /**
     * A new secret, so that no token obtained before (a page's, or one planted by someone else before the
     * sign-in) works after it; the client fetches a new token.
     */
    renewCsrfSecret(reply: FastifyReply): void;
  }
}
