import {
  effectiveManagedBy,
  isSpendCapOn,
  type Organization,
  type PlanId,
} from '@meterline/domain';
import { Gauge } from 'lucide-react';
import { useProfile } from '../../../session/profile-context';
import { ErrorState } from '../../../components/error-state';
import { Badge } from '../../../components/ui/badge';
import { LoadingRegion, Skeleton } from '../../../components/ui/skeleton';
import { useSubscriptionQuery } from '../../../data/subscription-query';
import { BillingSection, type BillingSectionProps } from '../billing-section';
import { CHANGES_DISABLED_TOOLTIP } from '../subscription/change-plan-button';
import { PanelLinkButton } from '../panel-link-button';

export const SPEND_CAP_PLAN_TOOLTIP =
  'Team and Enterprise plans bill usage beyond the included quota: their spend cap is always off.';
export const SPEND_CAP_MARKETPLACE_TOOLTIP =
  'The spend cap is not available for organizations billed through AWS Marketplace.';

/** Why "Change spend cap" is disabled, by the spec's rules; null when it is enabled. */
export function spendCapBlocker(
  organization: Pick<Organization, 'slug' | 'managed_by'>,
  planId: PlanId,
  projectUpdatesDisabled: boolean,
): string | null {
  if (projectUpdatesDisabled) return CHANGES_DISABLED_TOOLTIP;
  if (effectiveManagedBy(organization) === 'aws-marketplace') return SPEND_CAP_MARKETPLACE_TOOLTIP;
  if (planId === 'team' || planId === 'enterprise') return SPEND_CAP_PLAN_TOOLTIP;
  return null;
}

function CostControlContent({ organization }: Pick<BillingSectionProps, 'organization'>) {
  const profile = useProfile();
  const subscription = useSubscriptionQuery(organization.slug);
  if (subscription.isPending) {
    return (
      <LoadingRegion label="Loading cost control" className="flex items-center justify-between">
        <div className="space-y-2">
          <Skeleton className="h-3 w-24" />
          <Skeleton className="h-5 w-40" />
        </div>
        <Skeleton className="h-9 w-36" />
      </LoadingRegion>
    );
  }
  if (subscription.isError) {
    return (
      <ErrorState
        title="Failed to retrieve subscription"
        error={subscription.error}
        onRetry={() => void subscription.refetch()}
      />
    );
  }
  const { plan, usage_billing_enabled: usageBillingEnabled } = subscription.data;
  const capOn = isSpendCapOn(plan.id, usageBillingEnabled);
  const blocker = spendCapBlocker(organization, plan.id, profile.project_updates_disabled);
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="flex min-w-0 items-start gap-3">
        <Gauge aria-hidden className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
        <div className="min-w-0 space-y-1">
          <p className="flex items-center gap-2 font-medium">
            Spend cap <Badge tone={capOn ? 'success' : 'neutral'}>{capOn ? 'On' : 'Off'}</Badge>
          </p>
          <p className="text-sm text-muted-foreground">
            {capOn
              ? 'Usage beyond the included quota is not billed: services are limited at the quota instead.'
              : 'Usage beyond the included quota is billed at the listed rates, so services keep running.'}
          </p>
        </div>
      </div>
      <PanelLinkButton panel="costControl" label="Change spend cap" blocker={blocker} />
    </div>
  );
}

export function CostControlSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="cost-control" role={role}>
      <CostControlContent organization={organization} />
    </BillingSection>
  );
}
