import { planCards, type Organization, type PlanId, type Role } from '@meterline/domain';
import { ErrorState } from '../../components/error-state';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { Sheet } from '../../components/ui/sheet';
import { usePlansQuery } from '../../data/plans-query';
import { useSubscriptionQuery } from '../../data/subscription-query';
import { useProfile } from '../../session/profile-context';
import { PlanCard } from './plan-card';
import { planCardAction } from './plan-card-action';
import { PlanPanelNotices } from './plan-panel-notices';

export const PLAN_PANEL_TITLE = 'Change subscription plan';

export interface PlanPanelProps {
  organization: Organization;
  role: Role | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** "Upgrade to X": the composition opens the upgrade dialog. */
  onUpgrade: (target: PlanId) => void;
  /** "Downgrade to X": the composition starts the downgrade flow. */
  onDowngrade: (target: PlanId) => void;
}

/**
 * The plan side panel (`?panel=subscriptionPlan`, spec §2): a card for free, pro, team and enterprise,
 * the current plan marked, each change enabled or disabled by the rules of spec §5 and §6.
 */
export function PlanPanel({ organization, open, onOpenChange, ...rest }: PlanPanelProps) {
  return (
    <Sheet
      open={open}
      onOpenChange={onOpenChange}
      title={PLAN_PANEL_TITLE}
      description={`For ${organization.name}`}
      className="max-w-6xl sm:w-[calc(100vw-3rem)]"
    >
      <PlanPanelBody organization={organization} {...rest} />
    </Sheet>
  );
}

function PlanPanelBody({
  organization,
  role,
  onUpgrade,
  onDowngrade,
}: Omit<PlanPanelProps, 'open' | 'onOpenChange'>) {
  const profile = useProfile();
  const subscription = useSubscriptionQuery(organization.slug);
  const plans = usePlansQuery(organization.slug);

  if (subscription.isError || plans.isError) {
    const failed = subscription.isError ? subscription : plans;
    return (
      <ErrorState
        title={
          subscription.isError ? 'Failed to retrieve subscription' : 'Failed to retrieve plans'
        }
        error={failed.error}
        onRetry={() => void failed.refetch()}
      />
    );
  }
  if (!subscription.data || !plans.data) return <PlanPanelSkeleton />;

  const context = {
    organization,
    subscription: subscription.data,
    role,
    projectUpdatesDisabled: profile.project_updates_disabled,
    plans: plans.data.plans,
  };
  const cards = planCards().map((card) => ({ card, action: planCardAction(card.planId, context) }));
  const blockers = cards.flatMap(({ action }) =>
    'blocker' in action && action.blocker ? [action.blocker] : [],
  );
  return (
    <div className="space-y-5">
      <PlanPanelNotices
        organization={organization}
        subscription={subscription.data}
        projectUpdatesDisabled={profile.project_updates_disabled}
        blockers={blockers}
      />
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {cards.map(({ card, action }) => (
          <PlanCard
            key={card.id}
            card={card}
            action={action}
            onChange={(action) =>
              action.kind === 'upgrade' ? onUpgrade(action.target) : onDowngrade(action.target)
            }
          />
        ))}
      </div>
      <p className="text-xs text-muted-foreground">
        Prices are in US dollars. Compute, add-ons and usage beyond the included quota are billed on
        top of the plan.
      </p>
    </div>
  );
}

function PlanPanelSkeleton() {
  return (
    <LoadingRegion label="Loading plans" className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
      {[0, 1, 2, 3].map((card) => (
        <div key={card} className="space-y-3 rounded-lg border bg-card p-4">
          <Skeleton className="h-5 w-20" />
          <Skeleton className="h-8 w-28" />
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ))}
    </LoadingRegion>
  );
}
