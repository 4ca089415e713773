import {
  errorResponseSchema,
  orgParamsSchema,
  spendAlertSchema,
  spendAlertStateSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { auditContextOf } from '../plugins/audit-context.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { deleteSpendAlert, getSpendAlert, saveSpendAlert } from '../repositories/spend-alerts.ts';
import { recordAudit } from '../repositories/record-audit.ts';
import type { CycleRowsCache } from '../services/subscription/cycle-data.ts';
import { checkSpendAlerts } from '../services/spend-alerts/check-spend-alerts.ts';
import { describeSpendAlert } from '../services/spend-alerts/describe-spend-alert.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const URL = '/platform/organizations/:slug/billing/spend-alert';

/** The monthly budget and its alert thresholds (product decisions §12, docs/decisions/013). */
const spendAlertRoutes: FastifyPluginAsyncZod<{
  db: Db;
  clock: Clock;
  cache: CycleRowsCache;
}> = async (app, { db, clock, cache }) => {
  app.get(
    URL,
    {
      config: { access: { kind: 'org', permission: 'billing_read:subscriptions' } },
      schema: {
        tags: ['billing'],
        summary: "The spend alert budget and where this cycle's spend stands against it",
        description:
          'Always 200: with no budget set, `budget` is null, `thresholds` are the defaults and ' +
          'nothing is reached. `reached` and `projected_to_exceed` compare the upcoming invoice with ' +
          'the current budget (what the billing page banner shows); `alerts` are those sent this cycle.',
        params: orgParamsSchema,
        response: { 200: spendAlertStateSchema, ...errors },
      },
    },
    async (request) =>
      describeSpendAlert(db, requireOrg(request).organizationId, clock.now(), cache),
  );

  app.put(
    URL,
    {
      config: { access: { kind: 'org', permission: 'billing_write:subscriptions' } },
      schema: {
        tags: ['billing'],
        summary: 'Set the monthly budget (whole US dollars) and its thresholds (percent)',
        description:
          'Thresholds default to 50, 75, 90 and 100. Each threshold crossed, and the projection ' +
          'passing the budget before the spend does, emails the billing recipients once per cycle. A ' +
          'budget already below the spend so far alerts at once for the thresholds passed.',
        params: orgParamsSchema,
        body: spendAlertSchema,
        response: { 200: spendAlertStateSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const before = await getSpendAlert(trx, organizationId);
        await saveSpendAlert(trx, organizationId, request.body, now);
        const after = await getSpendAlert(trx, organizationId);
        if (JSON.stringify(before) === JSON.stringify(after)) return;
        await recordAudit(trx, auditContextOf(request), {
          organizationId,
          action: 'spend_alert.updated',
          target: { type: 'spend_alert', id: organizationId },
          before: before ? { ...before } : null,
          after: after ? { ...after } : null,
          at: now,
        });
      });
      // After the commit: a budget lowered below today's spend alerts now, not at the job's next pass
      // (which catches up should this fail).
      try {
        await checkSpendAlerts(db, organizationId, now, cache);
      } catch (error) {
        request.log.error({ err: error, organizationId }, 'spend alert not checked after a change');
      }
      return describeSpendAlert(db, organizationId, now, cache);
    },
  );

  app.delete(
    URL,
    {
      config: { access: { kind: 'org', permission: 'billing_write:subscriptions' } },
      schema: {
        tags: ['billing'],
        summary: 'Remove the budget: no more spend alerts',
        description: 'Answers 204 whether or not a budget was set.',
        params: orgParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireOrg(request);
      await db.transaction().execute(async (trx) => {
        const before = await getSpendAlert(trx, organizationId);
        if (!before || !(await deleteSpendAlert(trx, organizationId))) return;
        await recordAudit(trx, auditContextOf(request), {
          organizationId,
          action: 'spend_alert.deleted',
          target: { type: 'spend_alert', id: organizationId },
          before: { ...before },
          at: clock.now(),
        });
      });
      return reply.code(204).send(null);
    },
  );
};

export default spendAlertRoutes;
