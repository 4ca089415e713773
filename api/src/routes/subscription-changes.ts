import {
  errorResponseSchema,
  idempotencyHeadersSchema,
  orgParamsSchema,
  subscriptionConfirmBodySchema,
  subscriptionConfirmResponseSchema,
  subscriptionPreviewBodySchema,
  subscriptionPreviewSchema,
  subscriptionUpdateBodySchema,
  subscriptionUpdateResponseSchema,
} from '@meterline/domain';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditContextOf } from '../plugins/audit-context.ts';
import { requireOrg, requireUser } from '../plugins/request-context.ts';
import { cancelScheduledChange } from '../services/plan-changes/cancel-scheduled-change.ts';
import { changePlan } from '../services/plan-changes/change-plan.ts';
import type { PlanChangeDeps } from '../services/plan-changes/change-rules.ts';
import { confirmChange } from '../services/plan-changes/confirm-change.ts';
import { previewChange } from '../services/plan-changes/preview-change.ts';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};
const writeSubscriptions = {
  access: { kind: 'org', permission: 'billing_write:subscriptions' },
} as const;

/** The plan change of product-decisions §9: preview, change, confirm, and the scheduled change. */
const subscriptionChangeRoutes: FastifyPluginAsyncZod<PlanChangeDeps> = async (app, deps) => {
  app.post(
    '/platform/organizations/:slug/billing/subscription/preview',
    {
      config: writeSubscriptions,
      schema: {
        tags: ['billing'],
        summary: 'Price a change of plan now: the change invoice, the charge today, the estimate',
        description:
          'Accepts the `Version: 2` header. Send `proration_date` back with the change (within 10 ' +
          'minutes): it is charged exactly `charge_today`. Between the end of the cycle and its close ' +
          '(BILLING_CLOSE_GRACE_MINUTES later): 409, saying when to try again.',
        params: orgParamsSchema,
        body: subscriptionPreviewBodySchema,
        response: { 200: subscriptionPreviewSchema, ...errors },
      },
    },
    async (request) =>
      previewChange(
        deps,
        requireOrg(request).organizationId,
        requireUser(request).id,
        request.body.tier,
      ),
  );

  app.put(
    '/platform/organizations/:slug/billing/subscription',
    {
      config: writeSubscriptions,
      schema: {
        tags: ['billing'],
        summary: 'Change the plan (or schedule a hosting-partner downgrade for the cycle end)',
        description:
          'Honours Idempotency-Key. Applied at once when nothing is due; otherwise the card ' +
          '(`payment_method`, else the default) is charged and the change is applied when the payment ' +
          'succeeds. `requires_action`: confirm `pending_payment_intent_secret` in the browser, then POST ' +
          '/billing/subscription/confirm. A decline answers 402 and changes nothing. Between the end of ' +
          'the cycle and its close: 409 saying when to try again, except a change sent back with the ' +
          '`proration_date` of a preview taken before the end.',
        params: orgParamsSchema,
        headers: idempotencyHeadersSchema,
        body: subscriptionUpdateBodySchema,
        response: { 200: subscriptionUpdateResponseSchema, 402: errorResponseSchema, ...errors },
      },
    },
    async (request) =>
      changePlan(deps, {
        organizationId: requireOrg(request).organizationId,
        userId: requireUser(request).id,
        idempotencyKey: request.headers['idempotency-key'],
        body: request.body,
        audit: auditContextOf(request),
      }),
  );

  app.post(
    '/platform/organizations/:slug/billing/subscription/confirm',
    {
      config: writeSubscriptions,
      schema: {
        tags: ['billing'],
        summary: 'Apply a plan change whose payment passed 3-D Secure',
        description:
          '200 when applied (or already applied), 202 while the payment is processing, 402 when it ' +
          'failed, 409 when the pending change expired.',
        params: orgParamsSchema,
        body: subscriptionConfirmBodySchema,
        response: {
          200: subscriptionConfirmResponseSchema,
          202: subscriptionConfirmResponseSchema,
          402: errorResponseSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const result = await confirmChange(
        deps,
        requireOrg(request).organizationId,
        request.body.payment_intent_id,
      );
      return reply.code(result.status).send(result.body);
    },
  );

  app.delete(
    '/platform/organizations/:slug/billing/subscription/scheduled-change',
    {
      config: writeSubscriptions,
      schema: {
        tags: ['billing'],
        summary: 'Cancel the plan change scheduled for the end of the cycle',
        params: orgParamsSchema,
        response: { 200: z.object({ message: z.string() }), ...errors },
      },
    },
    async (request) =>
      cancelScheduledChange(
        deps.db,
        requireOrg(request).organizationId,
        auditContextOf(request),
        deps.clock.now(),
      ),
  );
};

export default subscriptionChangeRoutes;
