import {
  entitlementsSchema,
  errorResponseSchema,
  orgParamsSchema,
  planEntitlements,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/database.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { getSubscription } from '../repositories/subscriptions.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

const entitlementRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/platform/organizations/:slug/entitlements',
    {
      config: { access: { kind: 'org', permission: 'billing_read:subscriptions' } },
      schema: {
        tags: ['billing'],
        summary: "What the organization's plan grants (retention, compliance, support, limits)",
        params: orgParamsSchema,
        response: { 200: entitlementsSchema, ...errors },
      },
    },
    async (request) => {
      const subscription = await getSubscription(db, requireOrg(request).organizationId);
      return planEntitlements(subscription.plan_id);
    },
  );
};

export default entitlementRoutes;
