import { errorResponseSchema } from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../plugins/errors.ts';
import { handlePaymentEvent } from '../services/charges/handle-payment-event.ts';
import type { PaymentGateway } from '../adapters/payment-gateway.ts';
import {
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookSignatureError,
  parseStripeWebhook,
} from '../adapters/stripe/stripe-webhook.ts';
import { HANDLED_EVENT_TYPES } from '../adapters/payment-event.ts';

/**
 * The card provider's webhooks. The signature is checked on the raw body with the signing secret, and a
 * timestamp older than the tolerance is refused, so a captured request cannot be replayed later; an event
 * replayed within the window, or out of order, changes nothing twice (the event handler is idempotent).
 */
const webhookRoutes: FastifyPluginAsyncZod<{
  db: Db;
  gateway: PaymentGateway;
  clock: Clock;
  webhookSecret: string | undefined;
}> = async (app, { db, gateway, clock, webhookSecret }) => {
  // This plugin's scope only: the signature is over the exact bytes received.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/platform/webhooks/stripe',
    {
      config: { access: { kind: 'public' }, signedWebhook: true },
      schema: {
        tags: ['webhooks'],
        summary: 'Stripe webhook events (signed)',
        description:
          `Verifies the Stripe-Signature header with STRIPE_WEBHOOK_SECRET; a timestamp older than ` +
          `${WEBHOOK_TOLERANCE_SECONDS} seconds is refused. Handles ${HANDLED_EVENT_TYPES.join(', ')}; ` +
          'other events, and events about objects we do not know, are acknowledged (recorded by id). ' +
          'Idempotent by event id and by state transition; an older event arriving late changes nothing.',
        headers: z.looseObject({
          'stripe-signature': z
            .string()
            .max(2048)
            .optional()
            .describe('t=<unix seconds>,v1=<HMAC-SHA256>'),
        }),
        response: {
          200: z.object({ received: z.literal(true), handled: z.boolean() }),
          400: errorResponseSchema,
          404: errorResponseSchema,
        },
      },
    },
    async (request) => {
      if (!webhookSecret || gateway.provider !== 'stripe') {
        throw new HttpError(404, 'Stripe webhooks are not configured');
      }
      const payload = typeof request.body === 'string' ? request.body : '';
      let parsed: ReturnType<typeof parseStripeWebhook>;
      try {
        parsed = parseStripeWebhook(
          payload,
          request.headers['stripe-signature'],
          webhookSecret,
          clock.now().getTime(),
        );
      } catch (error) {
        if (error instanceof WebhookSignatureError) {
          request.log.warn({ reason: error.message }, 'refused a Stripe webhook');
          throw new HttpError(400, `Webhook signature verification failed: ${error.message}`);
        }
        throw error;
      }
      if (!parsed.event) return { received: true as const, handled: false };
      const result = await handlePaymentEvent({ db, gateway, clock }, parsed.event);
      request.log.info({ event: parsed.id, type: parsed.type, result }, 'Stripe webhook');
      return { received: true as const, handled: result === 'applied' };
    },
  );
};

export default webhookRoutes;
