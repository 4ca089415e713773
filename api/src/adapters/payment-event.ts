/**
 * A provider event, in the provider-neutral shape the one event handler takes. The simulator emits these
 * directly; the Stripe webhook route turns verified Stripe events into them. `occurredAt` is the
 * provider's time of the event: of two about the same object, the older one arriving late changes nothing.
 */
export type PaymentEvent =
  | { id: string; type: 'setup_intent.succeeded'; providerSetupIntentId: string }
  | {
      id: string;
      type: 'setup_intent.setup_failed';
      providerSetupIntentId: string;
      message: string;
    }
  | {
      id: string;
      type: 'payment_intent.succeeded';
      providerRef: string;
      /** Our charge's idempotency key, as the intent carries it (metadata); null when unknown. */
      chargeKey: string | null;
    }
  | {
      id: string;
      type: 'payment_intent.payment_failed' | 'payment_intent.canceled';
      providerRef: string;
      chargeKey: string | null;
      message: string;
    }
  | {
      id: string;
      /** A refund made at the provider (its dashboard), or the echo of one we asked for. */
      type: 'charge.refunded';
      providerRef: string;
      /** All refunds of the payment together, in cents. */
      amountRefundedCents: number;
      occurredAt: Date;
    }
  | {
      id: string;
      type: 'charge.dispute.created' | 'charge.dispute.updated' | 'charge.dispute.closed';
      providerDisputeId: string;
      providerRef: string;
      amountCents: number;
      reason: string;
      /** The provider's status: needs_response, under_review, won, lost, … */
      status: string;
      openedAt: Date;
      occurredAt: Date;
    }
  | {
      id: string;
      /** A saved card's details changed at the provider (the card network sent a new expiry, say). */
      type: 'payment_method.updated';
      providerPaymentMethodId: string;
      brand: string;
      last4: string;
      expMonth: number;
      expYear: number;
      occurredAt: Date;
    };

export const HANDLED_EVENT_TYPES = [
  'setup_intent.succeeded',
  'setup_intent.setup_failed',
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.canceled',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'payment_method.updated',
  'payment_method.automatically_updated',
] as const;
