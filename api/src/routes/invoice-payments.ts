import {
  errorResponseSchema,
  idempotencyHeadersSchema,
  invoiceParamsSchema,
  invoicePaymentBodySchema,
  invoicePaymentResponseSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { perUserRateLimit } from '../plugins/rate-limits.ts';
import { auditContextOf } from '../plugins/audit-context.ts';
import { requireOrg, requireUser } from '../plugins/request-context.ts';
import { payInvoice, type PayInvoiceDeps } from '../services/invoices/pay-invoice.ts';

/**
 * Pay Now on the hosted invoice page, the same with either provider: the browser tokenizes the card at
 * the provider (Stripe.js, or the simulator's stand-in) and sends only the payment method id here.
 */
const invoicePaymentRoutes: FastifyPluginAsyncZod<PayInvoiceDeps> = async (app, deps) => {
  app.post(
    '/platform/organizations/:slug/billing/invoices/:invoiceId/pay',
    {
      config: {
        access: { kind: 'org', permission: 'billing_write:subscriptions' },
        // Each attempt charges a card: card testing is many attempts. A person needs a few, and the
        // same request again after 3-D Secure.
        rateLimit: perUserRateLimit(30, '1 minute'),
      },
      schema: {
        tags: ['invoices'],
        summary:
          'Pay an outstanding invoice on the hosted payment page, with a saved card or a new one',
        description:
          "payment_method_id is one of the organization's saved cards (its `id` in GET /payments), or " +
          "a card typed on the page as the provider's payment method, tokenized by the browser, which " +
          'is charged, not saved. Needs the session of a member with billing write on the ' +
          "invoice's organization, whichever card. `succeeded`: the invoice is " +
          'paid and an overdue restriction lifted. `requires_action`: the browser confirms ' +
          'payment_intent_secret (3-D Secure), then sends this request again with the same ' +
          'Idempotency-Key, which settles it. `processing`: the provider settles it later. A decline ' +
          "answers 402 with the provider's message. 404 for another organization's card; 409 when " +
          'nothing is left to pay or another payment is in progress; 429 beyond 30 a minute per user.',
        params: invoiceParamsSchema,
        headers: idempotencyHeadersSchema,
        body: invoicePaymentBodySchema,
        response: {
          200: invoicePaymentResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          402: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) =>
      payInvoice(deps, {
        organizationId: requireOrg(request).organizationId,
        invoiceId: request.params.invoiceId,
        idempotencyKey: request.headers['idempotency-key'],
        paymentMethodId: request.body.payment_method_id,
        userId: requireUser(request).id,
        audit: auditContextOf(request),
      }),
  );
};

export default invoicePaymentRoutes;
