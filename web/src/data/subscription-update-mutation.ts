import {
  subscriptionConfirmResponseSchema,
  subscriptionUpdateBodySchema,
  subscriptionUpdateResponseSchema,
  type SubscriptionConfirmResponse,
  type SubscriptionUpdateBody,
  type SubscriptionUpdateResponse,
} from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

/** The spec's words when the card payment of a change could not be confirmed (§4, §8). */
export const CONFIRM_PAYMENT_FAILED =
  'Could not confirm payment. Please try again or use a different card.';

/** The spec's wait after a change (or its confirmation) before the screens refresh (§9). */
export const AFTER_CHANGE_WAIT_MS = 2000;

/**
 * PUT /platform/organizations/{slug}/billing/subscription with an `Idempotency-Key`: changes the plan
 * (or schedules a hosting-partner downgrade). Billing write on subscriptions. A declined card is 402 with
 * the provider's words; 3-D Secure answers `pending_payment_intent_secret`.
 */
export async function updateSubscription(
  slug: string,
  body: SubscriptionUpdateBody,
  idempotencyKey: string,
): Promise<SubscriptionUpdateResponse> {
  if (!slug) throw new Error('Slug is required');
  if (!body.tier) throw new Error('tier is required');
  const parsed = subscriptionUpdateBodySchema.safeParse(body);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Invalid change');
  return apiFetch(
    `/platform/organizations/${segment(slug)}/billing/subscription`,
    subscriptionUpdateResponseSchema,
    { method: 'PUT', body: parsed.data, headers: { 'Idempotency-Key': idempotencyKey } },
  );
}

/** POST /platform/organizations/{slug}/billing/subscription/confirm once the card passed 3-D Secure. */
export async function confirmSubscriptionChange(
  slug: string,
  paymentIntentId: string,
): Promise<SubscriptionConfirmResponse> {
  if (!slug) throw new Error('Slug is required');
  return apiFetch(
    `/platform/organizations/${segment(slug)}/billing/subscription/confirm`,
    subscriptionConfirmResponseSchema,
    { method: 'POST', body: { payment_intent_id: paymentIntentId } },
  );
}

export interface SubscriptionChangeRequest {
  body: SubscriptionUpdateBody;
  /** One per submission attempt, so a double submit or a retry of it changes (and charges) once. */
  idempotencyKey: string;
  /**
   * The payment port's confirmation of the card payment (3-D Secure); rejects when the customer fails
   * it or the card is refused. Called only when the server answers a pending payment.
   */
  confirmPayment: (paymentIntentSecret: string) => Promise<'succeeded' | 'processing'>;
  /** Shown while the payment is being confirmed ("a loading line shows"). */
  onConfirming?: () => void;
}

export type SubscriptionChangeOutcome = SubscriptionUpdateResponse['status'];

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The whole change of spec §4: the request; when the bank wants the customer, the confirmation with the
 * provider and then the confirm call; then the 2-second wait, after which every screen the change
 * touches is refreshed (invalidation.ts: subscription, plans, usage, upcoming invoice, organization
 * detail and list, payment methods, entitlements). A failed confirmation rejects with the spec's words.
 */
export function useSubscriptionUpdateMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.updateSubscription,
    mutationFn: async ({
      body,
      idempotencyKey,
      confirmPayment,
      onConfirming,
    }: SubscriptionChangeRequest): Promise<SubscriptionChangeOutcome> => {
      const response = await updateSubscription(slug, body, idempotencyKey);
      let outcome: SubscriptionChangeOutcome = response.status;
      if (response.pending_payment_intent_secret) {
        onConfirming?.();
        let status: 'succeeded' | 'processing';
        try {
          status = await confirmPayment(response.pending_payment_intent_secret);
        } catch {
          throw new Error(CONFIRM_PAYMENT_FAILED);
        }
        if (status !== 'succeeded' || !response.payment_intent_id) {
          throw new Error(CONFIRM_PAYMENT_FAILED);
        }
        const confirmed = await confirmSubscriptionChange(slug, response.payment_intent_id);
        outcome = confirmed.status;
      }
      await wait(AFTER_CHANGE_WAIT_MS);
      return outcome;
    },
  });
}

/** DELETE /platform/organizations/{slug}/billing/subscription/scheduled-change */
export async function cancelScheduledChange(slug: string): Promise<void> {
  if (!slug) throw new Error('Slug is required');
  await apiFetch(
    `/platform/organizations/${segment(slug)}/billing/subscription/scheduled-change`,
    z.pick(subscriptionConfirmResponseSchema, { message: true }),
    { method: 'DELETE' },
  );
}

export function useCancelScheduledChangeMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.cancelScheduledChange,
    mutationFn: () => cancelScheduledChange(slug),
  });
}
