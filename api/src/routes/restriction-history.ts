import {
  errorResponseSchema,
  orgParamsSchema,
  restrictionHistoryResponseSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/database.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { listTransitions } from '../repositories/restriction-transitions.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const HISTORY_LIMIT = 100;

const restrictionHistoryRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/platform/organizations/:slug/billing/restriction-history',
    {
      config: { access: { kind: 'org', permission: 'billing_read:subscriptions' } },
      schema: {
        tags: ['billing'],
        summary:
          "The organization's restriction transitions, newest first: grace period, its end, restriction, and what lifted them",
        params: orgParamsSchema,
        response: { 200: restrictionHistoryResponseSchema, ...errors },
      },
    },
    async (request) => ({
      transitions: await listTransitions(db, requireOrg(request).organizationId, HISTORY_LIMIT),
    }),
  );
};

export default restrictionHistoryRoutes;
