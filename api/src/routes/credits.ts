import {
  errorResponseSchema,
  idempotencyHeadersSchema,
  orgParamsSchema,
  topUpBodySchema,
  topUpResponseSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditContextOf } from '../plugins/audit-context.ts';
import { requireOrg, requireUser } from '../plugins/request-context.ts';
import { topUpCredits, type TopUpDeps } from '../services/credits/top-up.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

const creditRoutes: FastifyPluginAsyncZod<TopUpDeps> = async (app, deps) => {
  app.post(
    '/platform/organizations/:slug/billing/credits/top-up',
    {
      config: { access: { kind: 'org', permission: 'billing_write:subscriptions' } },
      schema: {
        tags: ['credits'],
        summary: 'Buy credit with a saved card: $100 to $2000 in whole dollars',
        description:
          'Checks the captcha, then charges the card under the Idempotency-Key. `succeeded`: the credit is ' +
          'on the balance. `requires_action`: the browser confirms payment_intent_secret (3-D Secure) and the ' +
          "credit follows the provider's event. `processing`: the provider settles it later. A decline " +
          "answers 402 with the provider's message. address, tax_id and billing_name, when given, update " +
          'the billing profile once the charge succeeds.',
        params: orgParamsSchema,
        headers: idempotencyHeadersSchema,
        body: topUpBodySchema,
        response: {
          200: topUpResponseSchema,
          400: errorResponseSchema,
          402: errorResponseSchema,
          409: errorResponseSchema,
          ...errors,
        },
      },
    },
    async (request) =>
      topUpCredits(deps, {
        organizationId: requireOrg(request).organizationId,
        userId: requireUser(request).id,
        idempotencyKey: request.headers['idempotency-key'],
        body: request.body,
        remoteIp: request.ip,
        audit: auditContextOf(request),
      }),
  );
};

export default creditRoutes;
