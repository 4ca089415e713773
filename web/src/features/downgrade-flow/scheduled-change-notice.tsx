import {
  CHANGES_DISABLED_MESSAGE,
  NO_PLAN_PERMISSION_MESSAGE,
  planName,
  scheduledChangeText,
  SUBSCRIPTION_ERROR_TOAST_MS,
  subscriptionUpdateErrorMessage,
  type Subscription,
} from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import { Notice } from '../../components/ui/notice';
import { useCancelScheduledChangeMutation } from '../../data/subscription-update-mutation';
import { BlockedButton } from '../../components/blocked-button';

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message.trim() : 'Something went wrong.';
}

/**
 * A plan change waiting for the end of the cycle (a hosting-partner downgrade, product-decisions §9),
 * for the subscription section: when it happens, and a way to cancel it. Renders nothing when no
 * change is scheduled. Cancelling needs billing write on subscriptions (`canWrite`).
 */
export function ScheduledChangeNotice({
  orgSlug,
  scheduled,
  canWrite,
  projectUpdatesDisabled = false,
}: {
  orgSlug: string;
  scheduled: Subscription['scheduled_plan_change'];
  canWrite: boolean;
  projectUpdatesDisabled?: boolean;
}) {
  const cancel = useCancelScheduledChangeMutation(orgSlug);
  if (!scheduled) return null;
  const target = planName(scheduled.target_plan);
  const blocker = !canWrite
    ? NO_PLAN_PERMISSION_MESSAGE
    : projectUpdatesDisabled
      ? CHANGES_DISABLED_MESSAGE
      : null;

  const onCancel = () => {
    if (cancel.isPending) return;
    cancel.mutate(undefined, {
      onSuccess: () =>
        toast.success(`Cancelled the scheduled move to the ${target} plan`, { duration: 4000 }),
      onError: (error) =>
        toast.error(subscriptionUpdateErrorMessage(messageOf(error)), {
          duration: SUBSCRIPTION_ERROR_TOAST_MS,
          dismissible: true,
        }),
    });
  };

  return (
    <Notice
      tone="info"
      title={scheduledChangeText(scheduled.target_plan, scheduled.at)}
      actions={
        <BlockedButton
          size="sm"
          blocker={blocker}
          aria-disabled={cancel.isPending || undefined}
          onClick={onCancel}
        >
          {cancel.isPending ? <Loader2 aria-hidden className="animate-spin" /> : null}
          Cancel scheduled change
        </BlockedButton>
      }
    >
      Until then nothing changes. Cancel it to keep the current plan.
    </Notice>
  );
}
