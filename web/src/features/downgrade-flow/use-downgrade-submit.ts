import { useRef, useState } from 'react';
import {
  downgradeSuccessToast,
  downgradeTier,
  SUBSCRIPTION_ERROR_TOAST_MS,
  subscriptionUpdateErrorMessage,
  type ExitSurveyAnswer,
  type PlanId,
} from '@meterline/domain';
import { toast } from '../../lib/toast';
import { sendDowngradeFeedback } from '../../data/downgrade-feedback-mutation';
import { useSubscriptionUpdateMutation } from '../../data/subscription-update-mutation';
import { isOutcomeUnknown, useIdempotencyKey } from '../../payments/idempotency';
import { usePaymentPort } from '../../payments/payments-provider';

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message.trim() : 'Something went wrong.';
}

export interface DowngradeFacts {
  orgSlug: string;
  targetPlan: PlanId;
  /** From the preview: whether projects restart on the free instance. */
  restartsProjects: boolean;
  /** From the preview: when a change scheduled for the cycle's end takes effect; null when now. */
  scheduledAt: number | null;
  /** From the preview: its proration date, so the change is charged what the preview showed. */
  prorationDate: number | null;
}

/**
 * The submission of spec §4: the exit survey first (its failure is ignored: it never blocks the
 * change), then the change itself, with the spec's toasts. The survey is sent once per flow, even when
 * the change is retried after a failure.
 */
export function useDowngradeSubmit(facts: DowngradeFacts, onDone: () => void) {
  const change = useSubscriptionUpdateMutation(facts.orgSlug);
  const portState = usePaymentPort();
  const idempotency = useIdempotencyKey();
  const surveySent = useRef(false);
  const submitting = useRef(false);
  const [busy, setBusy] = useState(false);
  const [confirmingPayment, setConfirmingPayment] = useState(false);

  const submit = async (answer: ExitSurveyAnswer) => {
    // Set synchronously: a second click before React re-renders sends nothing more.
    if (submitting.current) return;
    submitting.current = true;
    setBusy(true);
    try {
      if (!surveySent.current) {
        surveySent.current = true;
        await sendDowngradeFeedback({
          orgSlug: facts.orgSlug,
          reasons: answer.reasons,
          additionalFeedback: answer.additionalFeedback,
          exitAction: 'downgrade',
        }).catch(() => undefined);
      }
      const tier = downgradeTier(facts.targetPlan);
      // An immediate change sends the preview's proration date: it is charged what the preview showed.
      const body =
        facts.prorationDate === null || facts.scheduledAt !== null
          ? { tier }
          : { tier, proration_date: facts.prorationDate };
      const idempotencyKey = idempotency.keyFor(body);
      try {
        const outcome = await change.mutateAsync({
          body,
          idempotencyKey,
          // A downgrade rarely charges (its usage so far can exceed the credit for unused time);
          // when the bank wants the customer, the payment port asks them.
          confirmPayment: (secret) =>
            portState.status === 'ready'
              ? portState.port.confirmPayment(secret)
              : Promise.reject(new Error('The payment form is not ready')),
          onConfirming: () => setConfirmingPayment(true),
        });
        idempotency.settle();
        const success = downgradeSuccessToast({
          target: facts.targetPlan,
          restartsProjects: facts.restartsProjects,
          scheduledAt: outcome === 'scheduled' ? facts.scheduledAt : null,
        });
        toast.success(success.message, { duration: success.durationMs });
        onDone();
      } catch (error) {
        if (!isOutcomeUnknown(error)) idempotency.settle();
        toast.error(subscriptionUpdateErrorMessage(messageOf(error)), {
          duration: SUBSCRIPTION_ERROR_TOAST_MS,
          dismissible: true,
        });
      }
    } finally {
      submitting.current = false;
      setBusy(false);
      setConfirmingPayment(false);
    }
  };

  return { submit, busy, confirmingPayment };
}
