import { isSpendCapOn, spendCapBlocker } from '@meterline/domain';
import { Gauge } from 'lucide-react';
import { useProfile } from '../../../session/profile-context';
import { ErrorState } from '../../../components/error-state';
import { Badge } from '../../../components/ui/badge';
import { LoadingRegion, Skeleton } from '../../../components/ui/skeleton';
import { useSubscriptionQuery } from '../../../data/subscription-query';
import { BillingSection, type BillingSectionProps } from '../billing-section';
import { PanelLinkButton } from '../panel-link-button';

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
  // The spec's rules (§5), once in the domain: the panel's confirm and the server say the same.
  const blocker = spendCapBlocker({
    organization,
    subscription: {
      plan_id: plan.id,
      usage_billing_enabled: usageBillingEnabled,
      billing_partner: subscription.data.billing_partner,
    },
    projectUpdatesDisabled: profile.project_updates_disabled,
    canUpdateSubscription: true,
  });
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
