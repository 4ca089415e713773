import { useEffect, useRef, useState } from 'react';
import {
  CHANGES_DISABLED_MESSAGE,
  downgradeRestartsProjects,
  downgradeTier,
  planName,
  type PlanId,
} from '@meterline/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Loader2 } from 'lucide-react';
import { ErrorState } from '../../components/error-state';
import { Button } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { useDowngradePreviewQuery } from '../../data/downgrade-preview-query';
import {
  freeLimitMembersQueryOptions,
  useFreeLimitMembersQuery,
  type FreeLimitMember,
} from '../../data/free-project-limit-members-query';
import { PaymentsProvider } from '../../payments/payments-provider';
import { Dialog, DialogBody, DialogFooter } from '../../payments/ui/dialog';
import { BlockedButton } from '../../components/blocked-button';
import { DowngradeConsequences } from './downgrade-confirm-step';
import { ExitSurveyForm } from './exit-survey-form';
import { MembersAtLimit } from './members-at-limit';
import { useDowngradeSubmit } from './use-downgrade-submit';

export interface DowngradeFlowProps {
  orgSlug: string;
  organizationName: string;
  currentPlan: PlanId;
  /** A plan below `currentPlan`: free, or pro from team. */
  targetPlan: PlanId;
  /** The global switch (profile `project_updates_disabled`): the confirm button is disabled. */
  projectUpdatesDisabled: boolean;
  /** The flow was left without a change (Cancel, Close, Escape, or the members modal). */
  onClose: () => void;
  /** The change was applied or scheduled; the success toast has been shown. */
  onDone: () => void;
  /** The exit survey's shuffle; tests pass a fixed source. */
  random?: () => number;
}

/** Members are asked again when the last answer is older than this: someone may have paused a project. */
const MEMBERS_FRESH_MS = 30_000;

type Step =
  { name: 'confirm' } | { name: 'members'; members: FreeLimitMember[] } | { name: 'survey' };

/**
 * The downgrade flow of spec §2 and §4, rendered while open (mount it to open it, unmount it on
 * `onClose` or `onDone`): a confirm modal stating what is lost, then either the blocking
 * members-exceed-limit modal or the exit survey, whose submit sends the survey and then the change.
 * One dialog whose content moves step by step: focus stays inside it, moves to each step's first
 * control, and returns to the opener when it closes (the shared dialog's lib/return-focus).
 */
export function DowngradeFlow(props: DowngradeFlowProps) {
  return (
    <PaymentsProvider>
      <DowngradeDialog {...props} />
    </PaymentsProvider>
  );
}

function DowngradeDialog({
  orgSlug,
  organizationName,
  currentPlan,
  targetPlan,
  projectUpdatesDisabled,
  onClose,
  onDone,
  random,
}: DowngradeFlowProps) {
  const queryClient = useQueryClient();
  const toFree = targetPlan === 'free';
  // The free project limit is checked first: a downgrade it blocks opens on the
  // members who must act, not on a preview of a change that cannot be made. The preview is asked once
  // the members are known (or could not be: Confirm asks again).
  const limitMembers = useFreeLimitMembersQuery(orgSlug, { enabled: toFree });
  const membersKnown = !toFree || limitMembers.isSuccess || limitMembers.isError;
  const blockingMembers =
    toFree && limitMembers.data && limitMembers.data.length > 0 ? limitMembers.data : null;
  const preview = useDowngradePreviewQuery(orgSlug, downgradeTier(targetPlan), {
    enabled: membersKnown && blockingMembers === null,
  });
  const [chosenStep, setStep] = useState<Step>({ name: 'confirm' });
  const step: Step =
    chosenStep.name === 'confirm' && blockingMembers
      ? { name: 'members', members: blockingMembers }
      : chosenStep;
  const [checkingMembers, setCheckingMembers] = useState(false);
  const [membersError, setMembersError] = useState<unknown>(null);
  const scheduledAt =
    preview.data?.effective_at === 'end_of_billing_period' ? preview.data.effective_date : null;
  const submission = useDowngradeSubmit(
    {
      orgSlug,
      targetPlan,
      restartsProjects: downgradeRestartsProjects(targetPlan, preview.data?.active_projects ?? []),
      scheduledAt,
      prorationDate: preview.data?.proration_date ?? null,
    },
    onDone,
  );

  // Each step's first control takes focus when the step appears (the first one is the dialog's).
  const stepRoot = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (step.name === 'confirm') return;
    const dialog = stepRoot.current?.closest<HTMLElement>('[role="dialog"]');
    dialog
      ?.querySelector<HTMLElement>('[data-autofocus], input:not([disabled]), textarea')
      ?.focus();
  }, [step.name]);

  const current = planName(currentPlan);
  const target = planName(targetPlan);

  const confirm = async () => {
    if (!toFree) {
      setStep({ name: 'survey' });
      return;
    }
    setCheckingMembers(true);
    setMembersError(null);
    try {
      const members = await queryClient.fetchQuery({
        ...freeLimitMembersQueryOptions(orgSlug),
        staleTime: MEMBERS_FRESH_MS,
      });
      setStep(members.length > 0 ? { name: 'members', members } : { name: 'survey' });
    } catch (error) {
      setMembersError(error);
    } finally {
      setCheckingMembers(false);
    }
  };

  const titles: Record<Step['name'], string> = {
    confirm: `Downgrade to the ${target} plan`,
    members: 'Members have reached their free project limit',
    survey: 'Before you downgrade',
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      dismissible={!submission.busy}
      size="md"
      title={titles[step.name]}
      description={
        step.name === 'confirm'
          ? `${organizationName} moves from the ${current} plan to the ${target} plan.`
          : undefined
      }
    >
      <div ref={stepRoot} className="contents">
        {step.name === 'confirm' ? (
          <>
            {/* The consequences may scroll and hold no control: the region itself takes focus, so
                a keyboard can scroll it (axe: scrollable-region-focusable). */}
            <div
              tabIndex={0}
              role="region"
              aria-label="What the downgrade changes"
              className="min-h-0 flex-1 overflow-y-auto px-5 py-5 focus-visible:-outline-offset-2 sm:px-6"
            >
              {preview.isPending ? (
                <LoadingRegion label="Loading what the downgrade changes" className="space-y-3">
                  <Skeleton className="h-4 w-48" />
                  <Skeleton className="h-3 w-full" />
                  <Skeleton className="h-3 w-5/6" />
                  <Skeleton className="h-3 w-2/3" />
                </LoadingRegion>
              ) : preview.isError ? (
                <ErrorState
                  title="Failed to preview subscription"
                  error={preview.error}
                  onRetry={() => void preview.refetch()}
                />
              ) : (
                <DowngradeConsequences
                  preview={preview.data}
                  currentPlan={currentPlan}
                  targetPlan={targetPlan}
                />
              )}
              {membersError ? (
                <ErrorState
                  className="mt-4"
                  title="Could not check the members' free project limits"
                  error={membersError}
                  onRetry={() => void confirm()}
                />
              ) : null}
            </div>
            <DialogFooter>
              <Button onClick={onClose}>Cancel</Button>
              <BlockedButton
                variant="primary"
                blocker={projectUpdatesDisabled ? CHANGES_DISABLED_MESSAGE : null}
                disabled={!preview.isSuccess}
                aria-disabled={checkingMembers || undefined}
                onClick={() => {
                  if (!checkingMembers) void confirm();
                }}
              >
                {checkingMembers ? <Loader2 aria-hidden className="animate-spin" /> : null}
                Confirm downgrade
              </BlockedButton>
            </DialogFooter>
          </>
        ) : step.name === 'members' ? (
          <>
            <DialogBody>
              <MembersAtLimit members={step.members} />
            </DialogBody>
            <DialogFooter>
              <Button variant="primary" data-autofocus onClick={onClose}>
                Close
              </Button>
            </DialogFooter>
          </>
        ) : (
          <ExitSurveyForm
            random={random}
            disabled={submission.busy}
            onSubmit={(answer) => void submission.submit(answer)}
          >
            {({ body }) => (
              <>
                <DialogBody>
                  <p className="mb-5 text-muted-foreground">
                    {`Tell us why ${organizationName} is leaving the ${current} plan. Your answer helps us improve; it does not change the downgrade.`}
                  </p>
                  {body}
                  {submission.confirmingPayment ? (
                    <Notice
                      tone="info"
                      role="status"
                      className="mt-4"
                      title="Confirming the payment"
                    >
                      Your bank is checking the payment for the change.
                    </Notice>
                  ) : null}
                </DialogBody>
                <DialogFooter>
                  <Button disabled={submission.busy} onClick={onClose}>
                    Cancel
                  </Button>
                  <Button
                    type="submit"
                    variant="primary"
                    aria-disabled={submission.busy || undefined}
                  >
                    {submission.busy ? <Loader2 aria-hidden className="animate-spin" /> : null}
                    {scheduledAt === null
                      ? 'Submit and downgrade'
                      : 'Submit and schedule downgrade'}
                  </Button>
                </DialogFooter>
              </>
            )}
          </ExitSurveyForm>
        )}
      </div>
    </Dialog>
  );
}
