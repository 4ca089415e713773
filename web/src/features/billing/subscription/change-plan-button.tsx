import type { PlanId } from '@meterline/domain';
import { PanelLinkButton } from '../panel-link-button';

import { CHANGES_DISABLED_MESSAGE, ENTERPRISE_PLAN_MESSAGE } from '@meterline/domain';

/** The server's own words (domain plan-change rules), so the tooltip and the refusal never disagree. */
export const CHANGES_DISABLED_TOOLTIP = CHANGES_DISABLED_MESSAGE;
export const ENTERPRISE_PLAN_TOOLTIP = ENTERPRISE_PLAN_MESSAGE;

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
