import {
  attachPaymentMethodBodySchema,
  attachPaymentMethodResponseSchema,
  backupPaymentMethodResponseSchema,
  defaultPaymentMethodResponseSchema,
  deletePaymentMethodBodySchema,
  deletedPaymentMethodSchema,
  errorResponseSchema,
  orgParamsSchema,
  paymentMethodsSchema,
  paymentsConfigSchema,
  setBackupPaymentMethodBodySchema,
  setDefaultPaymentMethodBodySchema,
  setupIntentBodySchema,
  setupIntentResponseSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { auditContextOf } from '../plugins/audit-context.ts';
import { requireOrg, requireUser } from '../plugins/request-context.ts';
import {
  removeBackupPaymentMethod,
  setBackupPaymentMethod,
} from '../services/payment-methods/backup-payment-method.ts';
import { organizationCards } from '../services/payment-methods/organization-cards.ts';
import {
  attachSetupIntent,
  createSetupIntent,
  deletePaymentMethod,
  setDefaultPaymentMethod,
  type PaymentsDeps,
} from '../services/payment-methods/payment-methods.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const readMethods = {
  access: { kind: 'org', permission: 'billing_read:payment_methods' },
} as const;
const writeMethods = {
  access: { kind: 'org', permission: 'billing_write:payment_methods' },
} as const;

// Loose: the other headers (cookie, CSRF token) must stay on the request.
const versionHeadersSchema = z.looseObject({
  version: z.enum(['1', '2']).optional().describe('API version; the web app sends 2.'),
});

/** The organization's cards: list, add (setup intent, then attach), make default or backup, remove. */
const paymentRoutes: FastifyPluginAsyncZod<PaymentsDeps & { config: Config }> = async (
  app,
  deps,
) => {
  const { db, gateway, captcha, config } = deps;
  const url = '/platform/organizations/:slug/payments';

  app.get(
    '/platform/payments/config',
    {
      // Public: the page of an invoice's payment link has no session, and nothing here is secret.
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['payments'],
        summary: 'Which payment provider and captcha the browser talks to, with their public keys',
        description: 'Never carries a secret: only the publishable key and the captcha site key.',
        response: { 200: paymentsConfigSchema },
      },
    },
    async () => ({
      payment_provider: gateway.provider,
      publishable_key:
        gateway.provider === 'stripe' ? (config.STRIPE_PUBLISHABLE_KEY ?? null) : null,
      captcha: { provider: captcha.provider, site_key: captcha.siteKey },
    }),
  );

  app.get(
    url,
    {
      config: readMethods,
      schema: {
        tags: ['payments'],
        summary: "The organization's cards, oldest first, and the default one",
        description: 'Version 2 of the answer (header `Version: 2`); version 1 answers the same.',
        params: orgParamsSchema,
        headers: versionHeadersSchema,
        response: { 200: paymentMethodsSchema, ...errors },
      },
    },
    async (request) => organizationCards(db, requireOrg(request).organizationId),
  );

  app.post(
    `${url}/setup-intent`,
    {
      config: writeMethods,
      schema: {
        tags: ['payments'],
        summary: 'Start adding a card: a setup intent whose client secret the browser confirms',
        description:
          'Checks the captcha token (single use). The browser confirms the setup with the provider ' +
          '(the simulator: POST /platform/simulator/setup-intents/confirm), then calls attach.',
        params: orgParamsSchema,
        body: setupIntentBodySchema,
        response: { 200: setupIntentResponseSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) =>
      createSetupIntent(deps, {
        organizationId: requireOrg(request).organizationId,
        userId: requireUser(request).id,
        captchaToken: request.body.hcaptchaToken,
        remoteIp: request.ip,
        audit: auditContextOf(request),
      }),
  );

  app.post(
    `${url}/attach`,
    {
      config: writeMethods,
      schema: {
        tags: ['payments'],
        summary: 'Record the card of a setup the browser confirmed; idempotent',
        description:
          'Only a setup the provider reports as succeeded records a card; the first card becomes the ' +
          'default. Asking again answers the same card. 409 while the setup has not succeeded.',
        params: orgParamsSchema,
        body: attachPaymentMethodBodySchema,
        response: {
          200: attachPaymentMethodResponseSchema,
          400: errorResponseSchema,
          409: errorResponseSchema,
          ...errors,
        },
      },
    },
    async (request) =>
      attachSetupIntent(deps, {
        organizationId: requireOrg(request).organizationId,
        setupIntentId: request.body.setup_intent_id,
      }),
  );

  app.put(
    `${url}/default`,
    {
      config: writeMethods,
      schema: {
        tags: ['payments'],
        summary: 'Make a card the default (no charge)',
        params: orgParamsSchema,
        body: setDefaultPaymentMethodBodySchema,
        response: { 200: defaultPaymentMethodResponseSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) =>
      setDefaultPaymentMethod(deps, {
        organizationId: requireOrg(request).organizationId,
        paymentMethodId: request.body.payment_method_id,
        audit: auditContextOf(request),
      }),
  );

  app.put(
    `${url}/backup`,
    {
      config: writeMethods,
      schema: {
        tags: ['payments'],
        summary: 'Make a card the backup, charged when the default card declines (no charge now)',
        description:
          'When the billing engine finds the default card declined while collecting an invoice, it ' +
          'charges the backup card once in the same attempt. One backup per organization: marking ' +
          'another card moves the mark. 409 for the default card (making the backup the default later ' +
          "clears its mark); 404 for a card that is not the organization's. Pay Now, plan changes and " +
          'top-ups never fall back to it.',
        params: orgParamsSchema,
        body: setBackupPaymentMethodBodySchema,
        response: {
          200: backupPaymentMethodResponseSchema,
          400: errorResponseSchema,
          409: errorResponseSchema,
          ...errors,
        },
      },
    },
    async (request) =>
      setBackupPaymentMethod(db, {
        organizationId: requireOrg(request).organizationId,
        paymentMethodId: request.body.payment_method_id,
        audit: auditContextOf(request),
        at: deps.clock.now(),
      }),
  );

  app.delete(
    `${url}/backup`,
    {
      config: writeMethods,
      schema: {
        tags: ['payments'],
        summary: 'Leave the organization without a backup card (the card itself stays)',
        description: 'Answers `backupPaymentMethodId: null`, also when there was no backup.',
        params: orgParamsSchema,
        response: { 200: backupPaymentMethodResponseSchema, ...errors },
      },
    },
    async (request) =>
      removeBackupPaymentMethod(db, {
        organizationId: requireOrg(request).organizationId,
        audit: auditContextOf(request),
        at: deps.clock.now(),
      }),
  );

  app.delete(
    url,
    {
      config: writeMethods,
      schema: {
        tags: ['payments'],
        summary: 'Remove a card',
        description:
          '409 "The default payment method cannot be deleted", except for the only card of a free plan.',
        params: orgParamsSchema,
        body: deletePaymentMethodBodySchema,
        response: {
          200: deletedPaymentMethodSchema,
          400: errorResponseSchema,
          409: errorResponseSchema,
          ...errors,
        },
      },
    },
    async (request) =>
      deletePaymentMethod(
        { ...deps, log: request.log },
        {
          organizationId: requireOrg(request).organizationId,
          paymentMethodId: request.body.card_id,
          audit: auditContextOf(request),
        },
      ),
  );
};

export default paymentRoutes;
