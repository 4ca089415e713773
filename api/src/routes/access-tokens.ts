import {
  MAX_ACCESS_TOKENS,
  accessTokenCreateSchema,
  accessTokenCreatedSchema,
  accessTokenListSchema,
  accessTokenParamsSchema,
  errorResponseSchema,
  orgParamsSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { auditContextOf } from '../plugins/audit-context.ts';
import { requireOrg, requireUser } from '../plugins/request-context.ts';
import { listLiveAccessTokens } from '../repositories/access-tokens.ts';
import { accessTokenView } from '../services/access-tokens/access-token-view.ts';
import { createAccessToken } from '../services/access-tokens/create-access-token.ts';
import { revokeAccessToken } from '../services/access-tokens/revoke-access-token.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

/**
 * Organization access tokens (product decisions §13). Owners and administrators list,
 * create and revoke them; a token itself can call none of these (its scope reads billing data only).
 * A token is answered once, at creation; the database keeps its hash. Revoking is immediate: the access
 * guard reads the row on every request made with a token.
 */
const accessTokenRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (
  app,
  { db, clock },
) => {
  const base = '/platform/organizations/:slug/tokens';
  const read = {
    access: { kind: 'org' as const, permission: 'billing_read:access_tokens' as const },
  };
  const write = {
    access: { kind: 'org' as const, permission: 'billing_write:access_tokens' as const },
  };

  app.get(
    base,
    {
      config: read,
      schema: {
        tags: ['access-tokens'],
        summary: 'The live access tokens (revoked ones are gone; expired ones are listed as such)',
        params: orgParamsSchema,
        response: { 200: accessTokenListSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      const rows = await listLiveAccessTokens(db, organizationId);
      return { tokens: rows.map(accessTokenView) };
    },
  );

  app.post(
    base,
    {
      config: write,
      schema: {
        tags: ['access-tokens'],
        summary: 'Create a token; the answer holds the token itself, this once',
        description:
          'Send it as `Authorization: Bearer <token>` to any GET of the billing API of this ' +
          `organization. At most ${MAX_ACCESS_TOKENS} live tokens per organization.`,
        params: orgParamsSchema,
        body: accessTokenCreateSchema,
        response: { 201: accessTokenCreatedSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireOrg(request);
      const user = requireUser(request);
      const created = await createAccessToken(db, {
        organizationId,
        user,
        request: request.body,
        audit: auditContextOf(request),
        now: clock.now(),
      });
      return reply.code(201).send(created);
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: write,
      schema: {
        tags: ['access-tokens'],
        summary: 'Revoke a token: its next request is refused',
        params: accessTokenParamsSchema,
        response: { 204: z.null().describe('Revoked'), 400: errorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireOrg(request);
      await revokeAccessToken(db, {
        organizationId,
        id: request.params.id,
        audit: auditContextOf(request),
        now: clock.now(),
      });
      return reply.code(204).send(null);
    },
  );
};

export default accessTokenRoutes;
