import {
  dailyUsageSchema,
  errorResponseSchema,
  orgParamsSchema,
  orgUsageSchema,
  summarizeUsage,
  usageDailyQuerySchema,
  type BillingMetric,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { rationalFromDecimal, toNumber } from '../db/numeric.ts';
import { HttpError } from '../plugins/errors.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { dailyUsage } from '../repositories/usage.ts';
import { loadCurrentCycle, type CycleRowsCache } from '../services/billing/cycle-data.ts';
import { USAGE_METRIC_DEFINITIONS } from '@meterline/domain';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const readSubscriptions = {
  access: { kind: 'org', permission: 'billing_read:subscriptions' },
} as const;

const usageRoutes: FastifyPluginAsyncZod<{
  db: Db;
  clock: Clock;
  cache: CycleRowsCache;
}> = async (app, { db, clock, cache }) => {
  app.get(
    '/platform/organizations/:slug/usage',
    {
      config: readSubscriptions,
      schema: {
        tags: ['usage'],
        summary: 'Usage of the current cycle per metric, against the plan',
        params: orgParamsSchema,
        response: { 200: orgUsageSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      const { subscription, data } = await loadCurrentCycle(db, organizationId, clock.now(), cache);
      return {
        usage_billing_enabled: subscription.usage_billing_enabled,
        usages: summarizeUsage(
          subscription.plan_id,
          subscription.usage_billing_enabled,
          data.totals,
          data.perProject,
          {
            projectCount: data.projectCount,
            period: data.input.period,
          },
        ),
      };
    },
  );

  app.get(
    '/platform/organizations/:slug/usage/daily',
    {
      config: readSubscriptions,
      schema: {
        tags: ['usage'],
        summary: 'Daily usage per metric between two days (inclusive), optionally of one project',
        params: orgParamsSchema,
        querystring: usageDailyQuerySchema,
        response: { 200: dailyUsageSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      const { start, end, projectRef } = request.query;
      let projectId: string | null = null;
      if (projectRef) {
        const project = await db
          .selectFrom('projects')
          .select('id')
          .where('ref', '=', projectRef)
          .where('organization_id', '=', organizationId)
          .executeTakeFirst();
        if (!project) throw new HttpError(404, 'Project not found');
        projectId = project.id;
      }
      const rows = await dailyUsage(db, organizationId, start, end, projectId);
      // Per day: sums add up across projects; sizes are each project's average sample of that day.
      const byDay = new Map<string, number>();
      for (const row of rows) {
        const definition =
          USAGE_METRIC_DEFINITIONS[row.metric as keyof typeof USAGE_METRIC_DEFINITIONS];
        const sum = rationalFromDecimal(row.usage_sum);
        const value =
          definition?.aggregation === 'average'
            ? toNumber(sum) / Math.max(1, row.samples)
            : definition?.aggregation === 'max'
              ? toNumber(rationalFromDecimal(row.usage_max))
              : toNumber(sum);
        const k = `${row.day}|${row.metric}`;
        byDay.set(k, (byDay.get(k) ?? 0) + value);
      }
      return {
        data: [...byDay].map(([k, usage]) => {
          const [date = '', metric = ''] = k.split('|');
          return { date, metric: metric as BillingMetric, usage };
        }),
      };
    },
  );
};

export default usageRoutes;
