import {
  effectiveManagedBy,
  formatCents,
  isPartnerManaged,
  isSpendCapOn,
  type Subscription,
} from '@meterline/domain';
import { useProfile } from '../../../session/profile-context';
import { ErrorState } from '../../../components/error-state';
import { LoadingRegion, Skeleton } from '../../../components/ui/skeleton';
import { usePlansQuery } from '../../../data/plans-query';
import { useSubscriptionQuery } from '../../../data/subscription-query';
import { BillingSection, type BillingSectionProps } from '../billing-section';
import { PartnerManagedNotice } from '../partner-notices';
import { ChangePlanButton } from './change-plan-button';
import { SpendCapNote } from './spend-cap-note';

function PlanPrice({ orgSlug, subscription }: { orgSlug: string; subscription: Subscription }) {
  const plans = usePlansQuery(orgSlug);
  const current = plans.data?.plans.find((plan) => plan.id === subscription.plan.id);
  if (!current) return null;
  return (
    <p className="text-muted-foreground">
      {current.price === null ? 'Priced by contract' : `${formatCents(current.price)} per month`}
    </p>
  );
}

function SubscriptionSkeleton() {
  return (
    <LoadingRegion label="Loading subscription" className="flex items-center justify-between">
      <div className="space-y-2">
        <Skeleton className="h-3 w-20" />
        <Skeleton className="h-6 w-28" />
      </div>
      <Skeleton className="h-9 w-48" />
    </LoadingRegion>
  );
}

function SubscriptionSummary({ organization }: Pick<BillingSectionProps, 'organization'>) {
  const profile = useProfile();
  const subscription = useSubscriptionQuery(organization.slug);
  // Who manages the plan is known from the organization: it shows whatever the subscription does.
  const partnerNotice = isPartnerManaged(organization) ? (
    <PartnerManagedNotice organization={organization} subject="plan" />
  ) : null;

  if (subscription.isPending) {
    return (
      <>
        <SubscriptionSkeleton />
        {partnerNotice}
      </>
    );
  }
  if (subscription.isError) {
    return (
      <>
        <ErrorState
          title="Failed to retrieve subscription"
          error={subscription.error}
          onRetry={() => void subscription.refetch()}
        />
        {partnerNotice}
      </>
    );
  }

  const { plan, usage_billing_enabled: usageBillingEnabled } = subscription.data;
  return (
    <>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <p className="text-xs font-medium text-muted-foreground">Current plan</p>
          <p className="text-xl font-semibold tracking-tight">{plan.name} plan</p>
          <PlanPrice orgSlug={organization.slug} subscription={subscription.data} />
        </div>
        <ChangePlanButton
          planId={plan.id}
          projectUpdatesDisabled={profile.project_updates_disabled}
        />
      </div>
      {partnerNotice}
      {isSpendCapOn(plan.id, usageBillingEnabled) ? (
        <SpendCapNote
          planId={plan.id}
          orgSlug={organization.slug}
          cloudMarketplace={effectiveManagedBy(organization) === 'aws-marketplace'}
        />
      ) : null}
    </>
  );
}

export function SubscriptionSection({ organization, role, extra }: BillingSectionProps) {
  return (
    <BillingSection section="subscription" role={role}>
      {/* The frame renders this only with the read permission: no request without it. */}
      <div className="space-y-4">
        <SubscriptionSummary organization={organization} />
        {extra}
      </div>
    </BillingSection>
  );
}
