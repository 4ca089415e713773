import {
  errorResponseSchema,
  hasPermission,
  idempotencyKeySchema,
  missingPermissionMessage,
  simulatorChallengeBodySchema,
  simulatorChallengeResponseSchema,
  simulatorInvoicePayBodySchema,
  simulatorPaymentConfirmBodySchema,
  simulatorPaymentResponseSchema,
  simulatorSetupConfirmBodySchema,
  simulatorSetupConfirmResponseSchema,
  type SimulatorCard,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { NOT_FOUND_ORG, type OrgContext } from '../plugins/access.ts';
import { HttpError } from '../plugins/errors.ts';
import { requireUser } from '../plugins/request-context.ts';
import { findMembership } from '../repositories/organizations.ts';
import { deliverEvents } from '../services/payments/handle-payment-event.ts';
import type { CardDetails } from '../services/payments/payment-gateway.ts';
import { payInvoice } from '../services/payments/pay-invoice.ts';
import {
  SimulatorRequestError,
  type PaymentSimulator,
  type SimulatorResult,
} from '../services/payments/simulator.ts';

const cardError = { 402: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
const PAY_PERMISSION = 'billing_write:subscriptions' as const;

const cardDetails = (card: SimulatorCard): CardDetails => ({
  number: card.number,
  expMonth: card.exp_month,
  expYear: card.exp_year,
  cvc: card.cvc,
});

/**
 * The simulator's browser-facing side: what the card provider's embedded fields, 3-D Secure screen and
 * hosted invoice page do in production. Intent calls are authorized by the intent's client secret (and a
 * challenge by its unguessable id), not by our session, as the provider's are; the hosted invoice page is
 * ours and needs a member who may pay. Events go to the same handler as the provider's webhooks.
 */
const simulatorRoutes: FastifyPluginAsyncZod<{
  db: Db;
  simulator: PaymentSimulator;
  clock: Clock;
}> = async (app, { db, simulator, clock }) => {
  const eventDeps = { db, gateway: simulator, clock };

  /** Delivers the events, then answers: the body, or 402 with the card's refusal. */
  async function settle<T>(result: SimulatorResult<T>): Promise<T> {
    await deliverEvents(eventDeps, result.events);
    if (!result.ok) throw new HttpError(402, result.message);
    return result.response;
  }

  async function simulated<T>(call: () => Promise<SimulatorResult<T>>): Promise<T> {
    try {
      return await settle(await call());
    } catch (error) {
      if (error instanceof SimulatorRequestError)
        throw new HttpError(error.statusCode, error.message);
      throw error;
    }
  }

  app.post(
    '/platform/simulator/setup-intents/confirm',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['simulator'],
        summary:
          "Confirm a card setup with the simulator's card form (authorized by the client secret)",
        description:
          'Test cards: 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 is declined; 4000 0000 0000 9995 ' +
          'has insufficient funds; 4000 0000 0000 0069 is expired; 4000 0025 0000 3155 asks for 3-D Secure. ' +
          'A refusal answers 402 and saves nothing.',
        body: simulatorSetupConfirmBodySchema,
        response: {
          200: simulatorSetupConfirmResponseSchema,
          400: errorResponseSchema,
          ...cardError,
        },
      },
    },
    async (request) =>
      simulated(() =>
        simulator.confirmSetupIntent(request.body.client_secret, cardDetails(request.body.card)),
      ),
  );

  app.post(
    '/platform/simulator/payment-intents/confirm',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['simulator'],
        summary: 'Confirm an on-session payment with its client secret: succeeded, or a challenge',
        body: simulatorPaymentConfirmBodySchema,
        response: { 200: simulatorPaymentResponseSchema, 400: errorResponseSchema, ...cardError },
      },
    },
    async (request) => simulated(() => simulator.confirmPaymentIntent(request.body.client_secret)),
  );

  app.post(
    '/platform/simulator/challenges/:challengeId',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['simulator'],
        summary: "Answer a 3-D Secure challenge: the challenge screen's two buttons",
        description:
          'complete: the intent succeeds. fail: 402 "We are unable to authenticate your payment method. ' +
          'Please choose a different payment method and try again." and nothing is saved or charged. ' +
          'The first answer settles the challenge; a repeat answers the same.',
        params: z.object({ challengeId: z.string().min(1).max(200) }),
        body: simulatorChallengeBodySchema,
        response: {
          200: simulatorChallengeResponseSchema,
          400: errorResponseSchema,
          ...cardError,
        },
      },
    },
    async (request) =>
      simulated(() => simulator.resolveChallenge(request.params.challengeId, request.body.outcome)),
  );

  app.post(
    '/platform/simulator/invoices/:invoiceId/pay',
    {
      config: { access: { kind: 'user' } },
      // The organization is in the body, so the guard is here: still before validation, same answers.
      preValidation: async (request) => {
        const org = (request.body as { org?: unknown } | undefined)?.org;
        if (typeof org !== 'string' || !org) return;
        const membership = await findMembership(db, org, requireUser(request).id);
        if (!membership) throw new HttpError(404, NOT_FOUND_ORG);
        if (!hasPermission(membership.role, PAY_PERMISSION)) {
          throw new HttpError(403, missingPermissionMessage(PAY_PERMISSION));
        }
        request.org = membership satisfies OrgContext;
      },
      schema: {
        tags: ['simulator'],
        summary: "Pay an invoice on the simulator's hosted page with the card typed there",
        description:
          'Needs a member of `org` with billing write on subscriptions. The card is charged, not saved. ' +
          'Paid: the invoice is paid and an overdue restriction lifted. A retry with the same ' +
          'Idempotency-Key charges once.',
        params: z.object({ invoiceId: z.string().min(1).max(100) }),
        headers: z.looseObject({ 'idempotency-key': idempotencyKeySchema.optional() }),
        body: simulatorInvoicePayBodySchema,
        response: {
          200: simulatorPaymentResponseSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          403: errorResponseSchema,
          ...cardError,
        },
      },
    },
    async (request) => {
      const org = request.org;
      if (!org) throw new HttpError(404, NOT_FOUND_ORG);
      const result = await payInvoice(eventDeps, {
        organizationId: org.organizationId,
        invoiceId: request.params.invoiceId,
        idempotencyKey: request.headers['idempotency-key'],
        card: cardDetails(request.body.card),
        userId: requireUser(request).id,
      });
      if (result.status === 'succeeded') return { status: 'succeeded' as const };
      if (result.status === 'requires_action') {
        return simulated(() => simulator.confirmPaymentIntent(result.clientSecret));
      }
      throw new Error('The simulator never leaves a payment processing');
    },
  );
};

export default simulatorRoutes;
