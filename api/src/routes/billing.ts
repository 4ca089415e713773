import {
  errorResponseSchema,
  orgParamsSchema,
  plansList,
  plansListSchema,
  subscriptionSchema,
  upcomingInvoiceSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { getSubscription } from '../repositories/subscriptions.ts';
import {
  currentUpcomingInvoice,
  type CycleRowsCache,
} from '../services/subscription/cycle-data.ts';
import { describeSubscription } from '../services/subscription/describe-subscription.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const readSubscriptions = {
  access: { kind: 'org', permission: 'billing_read:subscriptions' },
} as const;

const billingRoutes: FastifyPluginAsyncZod<{
  db: Db;
  clock: Clock;
  cache: CycleRowsCache;
}> = async (app, { db, clock, cache }) => {
  app.get(
    '/platform/organizations/:slug/billing/plans',
    {
      config: readSubscriptions,
      schema: {
        tags: ['billing'],
        summary: 'The plans, with the current one marked and the direction of a change to each',
        params: orgParamsSchema,
        response: { 200: plansListSchema, ...errors },
      },
    },
    async (request) => {
      const subscription = await getSubscription(db, requireOrg(request).organizationId);
      return plansList(subscription.plan_id, subscription.billing_partner);
    },
  );

  app.get(
    '/platform/organizations/:slug/billing/subscription',
    {
      config: readSubscriptions,
      schema: {
        tags: ['billing'],
        summary: "The organization's subscription",
        params: orgParamsSchema,
        response: { 200: subscriptionSchema, ...errors },
      },
    },
    async (request) => describeSubscription(db, requireOrg(request).organizationId, clock.now()),
  );

  app.get(
    '/platform/organizations/:slug/billing/invoices/upcoming',
    {
      config: readSubscriptions,
      schema: {
        tags: ['billing'],
        summary: 'The invoice of the current cycle: accrued so far and projected to its end',
        description: 'Accepts the `Version: 2` header; the answer is the same.',
        params: orgParamsSchema,
        response: { 200: upcomingInvoiceSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      return currentUpcomingInvoice(db, organizationId, clock.now(), cache);
    },
  );
};

export default billingRoutes;
