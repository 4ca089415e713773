import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import type { PaymentEvent } from '../payment-event.ts';
import type { CardDetails } from '../payment-gateway.ts';
import type { TokenizedCard } from './cards.ts';

export const AUTHENTICATION_REQUIRED = 'This payment requires authentication by the card holder.';
export const PAYMENT_CANCELED = 'This payment was canceled.';
export const NO_SUCH_PAYMENT_METHOD = 'No such payment method.';
export const DETACHED_PAYMENT_METHOD =
  'This payment method was detached from its customer and may not be used again.';

export const id = (prefix: string) => `${prefix}_sim_${randomBytes(12).toString('hex')}`;
export const secretFor = (intentId: string) =>
  `${intentId}_secret_${randomBytes(16).toString('hex')}`;
/** The same idempotency key names the same intent: a retried create call finds the first one. */
export const idFromKey = (prefix: string, key: string) =>
  `${prefix}_sim_${createHash('sha256').update(key).digest('hex').slice(0, 24)}`;

/** A refusal of a simulator call that is not about the card: an unknown intent or challenge, a wrong state. */
export class SimulatorRequestError extends Error {
  constructor(
    readonly statusCode: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

/**
 * What a browser-facing simulator call did: its answer (or the card's refusal), and the events it emits,
 * which the caller delivers to the payment event handler, as the provider delivers its webhooks.
 */
export type SimulatorResult<T> =
  | { ok: true; response: T; events: PaymentEvent[] }
  | { ok: false; message: string; events: PaymentEvent[] };

/** What the simulator's verbs share: its database, its clock and its card tokenizer. */
export interface SimulatorContext {
  db: Db;
  now: () => Date;
  /** Checks a card as the provider's fields would; reads through `db` when given (a transaction). */
  tokenize: (card: CardDetails, db?: Db) => Promise<TokenizedCard>;
}

export function ok<T>(response: T, events: PaymentEvent[] = []): SimulatorResult<T> {
  return { ok: true, response, events };
}

export function setupSucceeded(setupIntentId: string): PaymentEvent {
  return { id: id('evt'), type: 'setup_intent.succeeded', providerSetupIntentId: setupIntentId };
}
