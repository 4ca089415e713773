import {
  errorResponseSchema,
  orgParamsSchema,
  spendCapPreviewBodySchema,
  spendCapPreviewSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireOrg, requireUser } from '../plugins/request-context.ts';
import type { PlanChangeDeps } from '../services/plan-changes/change-rules.ts';
import { previewSpendCapToggle } from '../services/spend-cap/preview-toggle.ts';

/** The preview of turning the spend cap on or off (product-decisions §10): what it charges now. */
const spendCapPreviewRoutes: FastifyPluginAsyncZod<PlanChangeDeps> = async (app, deps) => {
  app.post(
    '/platform/organizations/:slug/billing/spend-cap/preview',
    {
      config: { access: { kind: 'org', permission: 'billing_write:subscriptions' } },
      schema: {
        tags: ['billing'],
        summary:
          'Price turning the spend cap on or off now: the invoice it issues, the charge today',
        description:
          'Send `proration_date` back with `PUT /billing/subscription {tier}` (within 10 minutes): ' +
          'the toggle is charged exactly `charge_today`. 409 on any plan but Pro, for the setting ' +
          'already in force, and between the end of the cycle and its close.',
        params: orgParamsSchema,
        body: spendCapPreviewBodySchema,
        response: {
          200: spendCapPreviewSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
        },
      },
    },
    async (request) =>
      previewSpendCapToggle(
        deps,
        requireOrg(request).organizationId,
        requireUser(request).id,
        request.body.spend_cap,
      ),
  );
};

export default spendCapPreviewRoutes;
