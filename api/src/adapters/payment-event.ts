/**
 * A provider event, in the provider-neutral shape the one event handler takes. The simulator emits these
 * directly; the Stripe webhook route turns verified Stripe events into them.
 */
export type PaymentEvent =
  | { id: string; type: 'setup_intent.succeeded'; providerSetupIntentId: string }
  | {
      id: string;
      type: 'payment_intent.succeeded';
      providerRef: string;
      /** Our charge's idempotency key, as the intent carries it (metadata); null when unknown. */
      chargeKey: string | null;
    }
  | {
      id: string;
      type: 'payment_intent.payment_failed';
      providerRef: string;
      chargeKey: string | null;
      message: string;
    };

export const HANDLED_EVENT_TYPES = [
  'setup_intent.succeeded',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
] as const;
