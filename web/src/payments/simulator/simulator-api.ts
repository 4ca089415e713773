import {
  simulatorChallengeResponseSchema,
  simulatorPaymentMethodSchema,
  simulatorPaymentResponseSchema,
  simulatorSetupConfirmResponseSchema,
  type SimulatorCard,
  type SimulatorPaymentMethod,
  type SimulatorPaymentResponse,
  type SimulatorSetupConfirmResponse,
} from '@meterline/domain';
import type { z } from 'zod/mini';
import { apiFetch, segment } from '../../data/api-client';
import { asCardError } from '../payment-port';

/**
 * The simulator's stand-ins for the card provider's browser calls (decision 004). Like the
 * provider's, they are authorized by the intent's client secret (tokenizing a card, by the
 * session); a decline is 402 with the provider's words, which reach the caller as a `CardError`.
 */

export type { SimulatorCard };

async function asCardErrors<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    throw asCardError(error);
  }
}

/** POST /platform/simulator/setup-intents/confirm {client_secret, card} */
export function confirmSimulatedSetup(
  clientSecret: string,
  card: SimulatorCard,
): Promise<SimulatorSetupConfirmResponse> {
  return asCardErrors(
    apiFetch('/platform/simulator/setup-intents/confirm', simulatorSetupConfirmResponseSchema, {
      method: 'POST',
      body: { client_secret: clientSecret, card },
    }),
  );
}

/** POST /platform/simulator/payment-intents/confirm {client_secret} */
export function confirmSimulatedPayment(clientSecret: string): Promise<SimulatorPaymentResponse> {
  return asCardErrors(
    apiFetch('/platform/simulator/payment-intents/confirm', simulatorPaymentResponseSchema, {
      method: 'POST',
      body: { client_secret: clientSecret },
    }),
  );
}

export type ChallengeOutcome = 'complete' | 'fail';

/**
 * POST /platform/simulator/challenges/{id} {outcome}: the intent's final status; a failed
 * challenge is 402 "We are unable to authenticate your payment method...".
 */
export function resolveSimulatedChallenge(
  challengeId: string,
  outcome: ChallengeOutcome,
): Promise<z.infer<typeof simulatorChallengeResponseSchema>> {
  return asCardErrors(
    apiFetch(
      `/platform/simulator/challenges/${segment(challengeId)}`,
      simulatorChallengeResponseSchema,
      { method: 'POST', body: { outcome } },
    ),
  );
}

/**
 * POST /platform/simulator/payment-methods {card}: the provider's tokenization of a typed card for a
 * one-off payment (a signed-in user). A card the provider would not take is 402 in its words.
 */
export function createSimulatedPaymentMethod(card: SimulatorCard): Promise<SimulatorPaymentMethod> {
  return asCardErrors(
    apiFetch('/platform/simulator/payment-methods', simulatorPaymentMethodSchema, {
      method: 'POST',
      body: { card },
    }),
  );
}
