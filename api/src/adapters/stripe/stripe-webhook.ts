import Stripe from 'stripe';
import type { PaymentEvent } from '../payment-event.ts';

/** How old a signed webhook may be (seconds): older ones are refused as possible replays. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** A webhook whose signature or timestamp does not check out. */
export class WebhookSignatureError extends Error {}

export const CANCELED_MESSAGE = 'This payment was canceled.';
const SETUP_FAILED_MESSAGE = 'The card could not be set up.';

/**
 * Verifies a webhook's signature and its timestamp (no older than the tolerance, by our clock), and turns
 * the events the product handles into provider-neutral events; others answer null.
 */
export function parseStripeWebhook(
  payload: string | Buffer,
  signature: string | undefined,
  secret: string,
  nowMs: number,
): { event: PaymentEvent | null; type: string; id: string } {
  if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
  // The SDK refuses old timestamps; one from the future beyond the same window is refused too.
  const timestamp = Number(/(?:^|,)t=(\d+)/.exec(signature)?.[1]);
  if (Number.isFinite(timestamp) && timestamp * 1000 - nowMs > WEBHOOK_TOLERANCE_SECONDS * 1000) {
    throw new WebhookSignatureError('Timestamp outside the tolerance zone');
  }
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(
      payload,
      signature,
      secret,
      WEBHOOK_TOLERANCE_SECONDS,
      undefined,
      nowMs,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Invalid signature';
    throw new WebhookSignatureError(message);
  }
  return { event: toPaymentEvent(event), type: event.type, id: event.id };
}

/** The fields read of an event's object, whatever its type; each is checked before it is used. */
interface EventObject {
  id?: unknown;
  metadata?: Record<string, string> | null;
  last_payment_error?: { message?: string | null } | null;
  last_setup_error?: { message?: string | null } | null;
  payment_intent?: unknown;
  amount?: unknown;
  amount_refunded?: unknown;
  reason?: unknown;
  status?: unknown;
  created?: unknown;
  card?: { brand?: unknown; last4?: unknown; exp_month?: unknown; exp_year?: unknown } | null;
}

const str = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 ? value : null;
/** A count that fits the database's integer columns (cents, a month, a year). */
const int = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 2_147_483_647
    ? value
    : null;
/** An expanded object's id, or the id itself. */
const idOf = (value: unknown): string | null =>
  str(value) ?? (value && typeof value === 'object' ? str((value as { id?: unknown }).id) : null);

/** An event the product handles, in the neutral shape; null for others and for malformed objects. */
function toPaymentEvent(event: Stripe.Event): PaymentEvent | null {
  const object = event.data.object as unknown as EventObject;
  const objectId = str(object.id);
  if (!objectId) return null;
  const chargeKey = str(object.metadata?.charge_key);
  const occurredAt = new Date(event.created * 1000);
  const type = event.type as string;
  switch (type) {
    case 'setup_intent.succeeded':
      return { id: event.id, type, providerSetupIntentId: objectId };
    case 'setup_intent.setup_failed':
      return {
        id: event.id,
        type,
        providerSetupIntentId: objectId,
        message: object.last_setup_error?.message ?? SETUP_FAILED_MESSAGE,
      };
    case 'payment_intent.succeeded':
      return { id: event.id, type, providerRef: objectId, chargeKey };
    case 'payment_intent.payment_failed':
      return {
        id: event.id,
        type,
        providerRef: objectId,
        chargeKey,
        message: object.last_payment_error?.message ?? 'Payment failed.',
      };
    case 'payment_intent.canceled':
      return { id: event.id, type, providerRef: objectId, chargeKey, message: CANCELED_MESSAGE };
    case 'charge.refunded': {
      const providerRef = idOf(object.payment_intent);
      const amountRefundedCents = int(object.amount_refunded);
      if (!providerRef || amountRefundedCents === null) return null;
      return { id: event.id, type, providerRef, amountRefundedCents, occurredAt };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed': {
      const providerRef = idOf(object.payment_intent);
      const amountCents = int(object.amount);
      if (!providerRef || amountCents === null) return null;
      const created = int(object.created);
      return {
        id: event.id,
        type,
        providerDisputeId: objectId,
        providerRef,
        amountCents,
        reason: str(object.reason) ?? 'general',
        status: str(object.status) ?? 'needs_response',
        openedAt: created === null ? occurredAt : new Date(created * 1000),
        occurredAt,
      };
    }
    case 'payment_method.updated':
    case 'payment_method.automatically_updated': {
      const card = object.card;
      const brand = str(card?.brand);
      const last4 = str(card?.last4);
      const expMonth = int(card?.exp_month);
      const expYear = int(card?.exp_year);
      if (!brand || !last4 || expMonth === null || expYear === null) return null;
      return {
        id: event.id,
        type: 'payment_method.updated',
        providerPaymentMethodId: objectId,
        brand,
        last4,
        expMonth,
        expYear,
        occurredAt,
      };
    }
    default:
      return null;
  }
}
