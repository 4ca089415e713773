import {
  MAX_ACCESS_TOKENS,
  accessTokenCreateSchema,
  accessTokenCreatedSchema,
  accessTokenListSchema,
  accessTokenParamsSchema,
  errorResponseSchema,
  orgParamsSchema,
  type AccessToken,
} from '@meterline/domain';
import type { Selectable } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import type { AccessTokensTable } from '../db/schema.ts';
import { auditContextOf } from '../plugins/audit-context.ts';
import { HttpError } from '../plugins/errors.ts';
import { recordAudit } from '../repositories/record-audit.ts';
import { requireOrg, requireUser } from '../plugins/request-context.ts';
import { newAccessToken, newAccessTokenId } from '../repositories/access-tokens.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const NOT_FOUND = 'Access token not found';
const DAY_MS = 86_400_000;
const unix = (date: Date) => Math.floor(date.getTime() / 1000);

type Row = Selectable<AccessTokensTable> & { created_by_email: string | null };

function view(row: Row): AccessToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    created_by: row.created_by_email,
    created_at: unix(row.created_at),
    last_used_at: row.last_used_at ? unix(row.last_used_at) : null,
    expires_at: row.expires_at ? unix(row.expires_at) : null,
  };
}

/**
 * Organization access tokens (issue 16, item 4; product decisions §13). Owners and administrators list,
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

  const live = (trx: Db, organizationId: string) =>
    trx
      .selectFrom('access_tokens')
      .leftJoin('users', 'users.id', 'access_tokens.created_by')
      .selectAll('access_tokens')
      .select('users.email as created_by_email')
      .where('access_tokens.organization_id', '=', organizationId)
      .where('access_tokens.revoked_at', 'is', null);

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
      const rows = await live(db, organizationId)
        .orderBy('access_tokens.created_at', 'desc')
        .orderBy('access_tokens.id', 'desc')
        .execute();
      return { tokens: rows.map(view) };
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
      const { name, expires_in_days: days, scope } = request.body;
      const { token, hash, prefix } = newAccessToken();
      const now = clock.now();
      const created = await db.transaction().execute(async (trx) => {
        // The organization's row, locked: two creations at once cannot both pass the count.
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
        if (Number(count.n) >= MAX_ACCESS_TOKENS) {
          throw new HttpError(
            400,
            `An organization has at most ${MAX_ACCESS_TOKENS} live access tokens: revoke one first`,
          );
        }
        const row = await trx
          .insertInto('access_tokens')
          .values({
            id: newAccessTokenId(),
            organization_id: organizationId,
            name,
            scope,
            token_hash: hash,
            prefix,
            created_by: user.id,
            created_at: now,
            expires_at: days === null ? null : new Date(now.getTime() + days * DAY_MS),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        // Never the token, its hash or its prefix: its name, scope and expiry.
        const after = {
          name,
          scope,
          expires_at: row.expires_at ? unix(row.expires_at) : null,
        };
        await recordAudit(trx, auditContextOf(request), {
          organizationId,
          action: 'access_token.created',
          target: { type: 'access_token', id: row.id },
          after,
          at: now,
        });
        return view({ ...row, created_by_email: user.email });
      });
      return reply.code(201).send({ token: created, secret: token });
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
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const revoked = await trx
          .updateTable('access_tokens')
          .set({ revoked_at: now })
          .where('organization_id', '=', organizationId)
          .where('id', '=', request.params.id)
          .where('revoked_at', 'is', null)
          .returning(['id', 'name', 'scope'])
          .executeTakeFirst();
        if (!revoked) throw new HttpError(404, NOT_FOUND);
        await recordAudit(trx, auditContextOf(request), {
          organizationId,
          action: 'access_token.revoked',
          target: { type: 'access_token', id: revoked.id },
          before: { name: revoked.name, scope: revoked.scope },
          at: now,
        });
      });
      return reply.code(204).send(null);
    },
  );
};

export default accessTokenRoutes;
