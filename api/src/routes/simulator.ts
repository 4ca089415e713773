import {
  challengeIdSchema,
  errorResponseSchema,
  simulatorChallengeBodySchema,
  simulatorChallengeResponseSchema,
  simulatorPaymentConfirmBodySchema,
  simulatorPaymentMethodBodySchema,
  simulatorPaymentMethodSchema,
  simulatorPaymentResponseSchema,
  simulatorSetupConfirmBodySchema,
  simulatorSetupConfirmResponseSchema,
  type SimulatorCard,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { HttpError } from '../plugins/errors.ts';
import { perUserRateLimit } from '../plugins/rate-limits.ts';
import { deliverEvents } from '../services/charges/handle-payment-event.ts';
import { CardError, type CardDetails } from '../adapters/payment-gateway.ts';
import {
  SimulatorRequestError,
  type PaymentSimulator,
  type SimulatorResult,
} from '../adapters/simulator/simulator.ts';

const cardError = { 402: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };

const cardDetails = (card: SimulatorCard): CardDetails => ({
  number: card.number,
  expMonth: card.exp_month,
  expYear: card.exp_year,
  cvc: card.cvc,
});

/**
 * The simulator's browser-facing side: what the card provider's embedded fields and 3-D Secure screen do
 * in production. Intent calls are authorized by the intent's client secret (and a challenge by its
 * unguessable id), not by our session, as the provider's are; tokenizing a card for a one-off payment
 * (the provider's publishable-key call) needs a signed-in user. Events go to the same handler as the
 * provider's webhooks.
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
          'has insufficient funds; 4000 0000 0000 0069 is expired; 4000 0025 0000 3155 asks for 3-D Secure ' +
          'once (a card saved with it authenticated is not asked again); 4000 0027 6000 3184 asks on ' +
          'every payment. ' +
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
        params: z.object({ challengeId: challengeIdSchema }),
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
    '/platform/simulator/payment-methods',
    {
      // Typing card after card is how stolen numbers are tried out: a person pays with a few.
      // Public, as the provider's own tokenization is: the holder of an invoice's payment link has no
      // session. Counted per user, or per address without one.
      config: {
        access: { kind: 'public', identify: true },
        rateLimit: perUserRateLimit(30, '1 minute'),
      },
      schema: {
        tags: ['simulator'],
        summary: "Tokenize the card typed into the simulator's card form, for a one-off payment",
        description:
          "The simulator's stand-in for the provider's tokenization in the browser (Stripe's " +
          'createPaymentMethod): the card gets a payment method id, saved for no organization. A card ' +
          "the provider would not accept (invalid number, past expiry) answers 402 in the provider's " +
          'words; a decline happens only when it is charged. 429 beyond 30 a minute per user (per ' +
          'address without a session).',
        body: simulatorPaymentMethodBodySchema,
        response: {
          200: simulatorPaymentMethodSchema,
          400: errorResponseSchema,
          402: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) => {
      try {
        const card = await simulator.createCard(cardDetails(request.body.card));
        return { id: card.providerPaymentMethodId };
      } catch (error) {
        if (error instanceof CardError) throw new HttpError(402, error.message);
        throw error;
      }
    },
  );
};

export default simulatorRoutes;
