import { useId, type MouseEvent } from 'react';
import type { PlanId } from '@meterline/domain';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Tooltip } from '../../../components/ui/tooltip';
import { useBillingPanel } from '../use-billing-panel';

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
 * "Change subscription plan": a real link to `?panel=subscriptionPlan` (so it can be opened in a
 * new tab or copied), which the panel of a later issue reads. Disabled while project updates are
 * switched off and on the enterprise plan, with the reason as a tooltip.
 */
export function ChangePlanButton({
  planId,
  projectUpdatesDisabled,
}: {
  planId: PlanId;
  projectUpdatesDisabled: boolean;
}) {
  const [params] = useSearchParams();
  const { openPanel } = useBillingPanel();
  const reasonId = useId();
  const blocker = changePlanBlocker(planId, projectUpdatesDisabled);
  const label = 'Change subscription plan';

  if (blocker) {
    return (
      <Tooltip content={blocker}>
        {/* A disabled button takes no focus or hover: the wrapper carries the tooltip. */}
        <span tabIndex={0} aria-describedby={reasonId} className="inline-flex rounded-md">
          <Button disabled>{label}</Button>
          <span id={reasonId} className="sr-only">
            {blocker}
          </span>
        </span>
      </Tooltip>
    );
  }

  const next = new URLSearchParams(params);
  next.set('panel', 'subscriptionPlan');
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    openPanel('subscriptionPlan');
  };
  return (
    <Button asChild>
      <Link to={{ search: `?${next.toString()}` }} onClick={onClick}>
        {label}
      </Link>
    </Button>
  );
}
