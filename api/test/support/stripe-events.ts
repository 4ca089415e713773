import Stripe from 'stripe';
import type { TestServer } from './server.ts';

export interface StripeEventAnswer {
  received?: boolean;
  handled?: boolean;
  message?: string;
}

/**
 * Sends a Stripe event to the server's webhook as Stripe does: its envelope, the object, signed with
 * the webhook secret now. `created` (unix seconds) is when Stripe made the event.
 */
export function sendStripeEvent(
  server: TestServer,
  secret: string,
  event: { id: string; type: string; object: object; created?: number },
) {
  const payload = JSON.stringify({
    id: event.id,
    object: 'event',
    type: event.type,
    api_version: '2025-01-01',
    created: event.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: event.object },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return server
    .client()
    .request<StripeEventAnswer>(
      'POST',
      '/platform/webhooks/stripe',
      JSON.parse(payload),
      { 'stripe-signature': signature },
      { csrf: false },
    );
}

/** Stripe's Charge of a payment intent, with what was refunded of it. */
export function stripeCharge(paymentIntent: string, amount: number, amountRefunded: number) {
  return {
    id: `ch_of_${paymentIntent}`,
    object: 'charge',
    amount,
    amount_refunded: amountRefunded,
    refunded: amountRefunded === amount,
    payment_intent: paymentIntent,
    status: 'succeeded',
  };
}

/** Stripe's Dispute of a payment intent's charge. */
export function stripeDispute(
  id: string,
  paymentIntent: string,
  fields: { amount: number; status: string; reason?: string; created: number },
) {
  return {
    id,
    object: 'dispute',
    amount: fields.amount,
    charge: `ch_of_${paymentIntent}`,
    payment_intent: paymentIntent,
    reason: fields.reason ?? 'fraudulent',
    status: fields.status,
    created: fields.created,
    currency: 'usd',
  };
}
