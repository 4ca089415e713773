import {
  csrfTokenSchema,
  errorResponseSchema,
  signInBodySchema,
  signInResponseSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import type { RateLimitCounters } from '../repositories/rate-limits.ts';
import { HttpError } from '../plugins/errors.ts';
import { signIn } from '../services/auth/sign-in.ts';
import { SignInLimits } from '../services/auth/sign-in-limits.ts';

const authRoutes: FastifyPluginAsyncZod<{
  db: Db;
  clock: Clock;
  counters: RateLimitCounters;
}> = async (app, { db, clock, counters }) => {
  const limits = new SignInLimits(counters, () => clock.now());

  app.get(
    '/platform/auth/csrf',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['auth'],
        summary: 'Issue a CSRF token; send it as x-csrf-token on every mutation',
        response: { 200: csrfTokenSchema },
      },
    },
    async (_request, reply) => ({ token: app.issueCsrfToken(reply) }),
  );

  app.post(
    '/platform/auth/sign-in',
    {
      config: {
        access: { kind: 'public' },
        // A generous ceiling per address for everything, on top of the failure counts below.
        rateLimit: { max: 60, timeWindow: '1 minute' },
      },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password; sets the session cookie',
        body: signInBodySchema,
        response: {
          200: signInResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const email = request.body.email.toLowerCase();
      const admission = await limits.admit(email, request.ip);
      if (!admission.ok) {
        throw new HttpError(429, 'Too many failed sign-in attempts. Please try again later.', {
          'retry-after': String(admission.retryAfter),
        });
      }
      const user = await signIn(db, email, request.body.password);
      // A failed attempt stays counted; it was counted before the check, so parallel guesses wait too.
      if (!user) throw new HttpError(401, 'Invalid email or password');
      await admission.attempt.succeeded();
      await app.startSession(reply, request, user.id);
      app.renewCsrfSecret(reply);
      return { user };
    },
  );

  app.post(
    '/platform/auth/sign-out',
    {
      config: { access: { kind: 'public' } },
      schema: { tags: ['auth'], summary: 'End the session', response: { 204: z.null() } },
    },
    async (request, reply) => {
      await app.endSession(reply, request);
      return reply.code(204).send(null);
    },
  );
};

export default authRoutes;
