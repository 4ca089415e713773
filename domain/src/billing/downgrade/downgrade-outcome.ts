import { formatInvoiceDate } from '../../format/dates.ts';
import type { ComputeSize, ProjectStatus } from '../../organization/projects.ts';
import { isActiveProject } from '../../organization/projects.ts';
import { PLAN_NAMES, type PlanId } from '../../organization/plans.ts';
import type { Tier } from '../billing-plans.ts';

/** Free-plan projects run on this instance (pricing.md); any other size restarts on a downgrade. */
export const FREE_INSTANCE_SIZE: ComputeSize = 'nano';

/** The spec's toast durations (§9): the longer variant when projects restart, the others shorter. */
export const DOWNGRADE_TOAST_LONG_MS = 8000;
export const DOWNGRADE_TOAST_MS = 4000;
/** Subscription errors: dismissible, 10 seconds (§8, §9). */
export const SUBSCRIPTION_ERROR_TOAST_MS = 10_000;

export const DOWNGRADED_TO_FREE = 'Successfully downgraded organization to the Free Plan';

/**
 * The tier a downgrade sends: Free is tier_free, and Team to Pro is sent as the pay-as-you-go tier
 * (spec §4: Team always has the spend cap off, and so does the Pro it becomes).
 */
export function downgradeTier(target: PlanId): Tier {
  if (target === 'pro') return 'tier_payg';
  return `tier_${target}`;
}

/** Whether a downgrade to `target` restarts projects: active ones above the free instance, on Free. */
export function downgradeRestartsProjects(
  target: PlanId,
  activeProjects: readonly { status: ProjectStatus; instance_size: ComputeSize }[],
): boolean {
  return (
    target === 'free' &&
    activeProjects.some(
      (project) => isActiveProject(project.status) && project.instance_size !== FREE_INSTANCE_SIZE,
    )
  );
}

export interface DowngradeToast {
  message: string;
  durationMs: number;
}

/**
 * The success toast of a downgrade (spec §8): to Free, the spec's sentence, with the 8-second variant
 * when projects restart; to another plan, "Successfully downgraded subscription to {plan}!"; a change
 * scheduled for the end of the cycle says when it takes effect.
 */
export function downgradeSuccessToast({
  target,
  restartsProjects,
  scheduledAt,
}: {
  target: PlanId;
  restartsProjects: boolean;
  /** Unix seconds when a scheduled change takes effect; null when it took effect now. */
  scheduledAt: number | null;
}): DowngradeToast {
  const plan = PLAN_NAMES[target];
  if (scheduledAt !== null) {
    return {
      message: `Your organization will move to the ${plan} plan on ${formatInvoiceDate(scheduledAt)}. Until then nothing changes.`,
      durationMs: DOWNGRADE_TOAST_LONG_MS,
    };
  }
  if (target !== 'free') {
    return {
      message: `Successfully downgraded subscription to ${plan}!`,
      durationMs: DOWNGRADE_TOAST_MS,
    };
  }
  if (restartsProjects) {
    return {
      message: `${DOWNGRADED_TO_FREE}. Your projects are restarting on the free instance and may be unavailable for a few minutes.`,
      durationMs: DOWNGRADE_TOAST_LONG_MS,
    };
  }
  return { message: DOWNGRADED_TO_FREE, durationMs: DOWNGRADE_TOAST_MS };
}

/** "Unable to update subscription: {message}" (spec §8). */
export function subscriptionUpdateErrorMessage(message: string): string {
  return `Unable to update subscription: ${message}`;
}

/** The scheduled change as the subscription section states it. */
export function scheduledChangeText(target: PlanId, at: number): string {
  return `Your organization will move to the ${PLAN_NAMES[target]} plan on ${formatInvoiceDate(at)}`;
}
