import type { PlanId } from '@meterline/domain';
import { PanelLinkButton } from '../panel-link-button';

export const CHANGES_DISABLED_TOOLTIP =
  'Subscription changes are currently disabled. Our engineers are working on a fix.';
export const ENTERPRISE_PLAN_TOOLTIP =
  'Enterprise plans are changed with your account team. Contact them to make a change.';

/** Why the button is disabled, by the spec's rule; null when it is enabled. */
export function changePlanBlocker(planId: PlanId, projectUpdatesDisabled: boolean): string | null {
  if (projectUpdatesDisabled) return CHANGES_DISABLED_TOOLTIP;
  if (planId === 'enterprise') return ENTERPRISE_PLAN_TOOLTIP;
  return null;
}

/**
 * "Change subscription plan": opens `?panel=subscriptionPlan`, which the plan panel reads. Disabled while
 * project updates are switched off and on the enterprise plan, with the reason as a tooltip.
 */
export function ChangePlanButton({
  planId,
  projectUpdatesDisabled,
}: {
  planId: PlanId;
  projectUpdatesDisabled: boolean;
}) {
  return (
    <PanelLinkButton
      panel="subscriptionPlan"
      label="Change subscription plan"
      blocker={changePlanBlocker(planId, projectUpdatesDisabled)}
    />
  );
}
