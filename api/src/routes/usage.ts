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
import { EXPORT_RATE_LIMIT } from '../plugins/rate-limits.ts';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../plugins/errors.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { dailyUsage, dailyValue } from '../repositories/usage-readings.ts';
import { findProjectId } from '../repositories/projects.ts';
import { contentDisposition, csvFileName } from '../services/exports/csv-export.ts';
import { USAGE_CSV_COLUMNS, usageCsv } from '../services/exports/usage-csv.ts';
import { loadCurrentCycle, type CycleRowsCache } from '../services/subscription/cycle-data.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const readSubscriptions = {
  access: { kind: 'org', permission: 'billing_read:subscriptions' },
} as const;

const usageRoutes: FastifyPluginAsyncZod<{
  db: Db;
  clock: Clock;
  cache: CycleRowsCache;
}> = async (app, { db, clock, cache }) => {
  /** The id of one of the organization's projects, by ref; 404 for any other. */
  async function projectIdOf(organizationId: string, projectRef: string): Promise<string> {
    const id = await findProjectId(db, organizationId, projectRef);
    if (!id) throw new HttpError(404, 'Project not found');
    return id;
  }

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
    '/platform/organizations/:slug/usage/export',
    {
      config: { ...readSubscriptions, rateLimit: EXPORT_RATE_LIMIT },
      schema: {
        tags: ['usage'],
        summary: 'Daily usage per project and metric between two days (inclusive), as CSV',
        description:
          'RFC 4180, UTF-8 with a byte-order mark and a header row: ' +
          `${USAGE_CSV_COLUMNS.join(', ')}. Usage is in the metric's metering unit (bytes, hours, ` +
          'counts), as reported; at most a year. Streamed a month at a time.',
        params: orgParamsSchema,
        querystring: usageDailyQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.any().describe('text/csv'), 400: errorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId, slug } = requireOrg(request);
      const { start, end, projectRef } = request.query;
      const projectId = projectRef ? await projectIdOf(organizationId, projectRef) : null;
      const name = csvFileName(slug, 'usage', start, end, ...(projectRef ? [projectRef] : []));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', contentDisposition(name))
        .header('cache-control', 'private, no-store')
        .send(usageCsv(db, organizationId, start, end, projectId));
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
      const projectId = projectRef ? await projectIdOf(organizationId, projectRef) : null;
      const rows = await dailyUsage(db, organizationId, start, end, projectId);
      // Per day: sums add up across projects; sizes are each project's average sample of that day.
      const byDay = new Map<string, number>();
      for (const row of rows) {
        const k = `${row.day}|${row.metric}`;
        byDay.set(k, (byDay.get(k) ?? 0) + dailyValue(row));
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
