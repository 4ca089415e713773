import csrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { cookieIsSecure } from './session.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'x-csrf-token';

/**
 * Double-submit protection for every browser mutation: the secret lives in an httpOnly cookie, the token
 * derived from it travels in a header that another site cannot set. Operator routes use a bearer key, not
 * cookies, so they need none.
 */
export default fp(
  async function csrfProtection(app: FastifyInstance, opts: { config: Config }) {
    await app.register(csrf, {
      cookieKey: 'ml_csrf',
      cookieOpts: { path: '/', httpOnly: true, sameSite: 'strict', secure: false },
      getToken: (request) => {
        const value = request.headers[CSRF_HEADER];
        return typeof value === 'string' ? value : undefined;
      },
    });

    // After the access guard (this plugin depends on it, so its hook runs later): a signed-out caller learns
    // it must sign in (401) and a non-member that the organization does not exist (404), not that a token
    // is missing; the token is still checked before any handler runs.
    app.addHook('preValidation', (request, reply, done) => {
      const { access, signedWebhook } = request.routeOptions.config ?? {};
      // A provider's webhook is no browser: its signature authenticates it.
      if (
        SAFE_METHODS.has(request.method) ||
        access?.kind === 'operator' ||
        !access ||
        signedWebhook
      ) {
        done();
        return;
      }
      app.csrfProtection(request, reply, done);
    });

    app.decorate('issueCsrfToken', (reply: FastifyReply) =>
      reply.generateCsrf({
        path: '/',
        httpOnly: true,
        sameSite: 'strict',
        secure: cookieIsSecure(opts.config, reply.request),
      }),
    );
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
  }
}
