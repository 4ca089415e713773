import {
  formatCents,
  formatPeriod,
  spendLevel,
  usedPercent,
  type SpendAlertState,
  type SpendLevel,
} from '@meterline/domain';
import { ErrorState } from '../../components/error-state';
import { useSpendAlertQuery } from '../../data/spend-alert-query';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { cn } from '../../lib/cn';
import { SpendAlertsForm } from './spend-alerts-form';

/** Amber once the first threshold is reached, red once the budget is. */
const BAR_COLOUR: Record<SpendLevel, string> = {
  under: 'bg-primary',
  warning: 'bg-warning',
  over: 'bg-destructive',
};

/** This cycle's spend against the budget: the figures, and a bar that reads without colour alone. */
function SpendSummary({ state }: { state: SpendAlertState }) {
  // As the upcoming invoice's cycle bar writes it.
  const cycle = formatPeriod(state.cycle_start, state.cycle_end);
  if (state.budget === null) {
    return (
      <p className="text-sm text-muted-foreground">
        No budget is set. Spent so far this billing cycle ({cycle}):{' '}
        <span className="font-medium text-foreground tabular-nums">{formatCents(state.spend)}</span>
        . Set a monthly budget to email the billing recipients as spending reaches each threshold.
      </p>
    );
  }
  const budgetCents = state.budget * 100;
  const percent = usedPercent(state.spend, state.budget);
  const level = spendLevel({ ...state, budget: state.budget });
  return (
    <div className="space-y-2">
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
        <div className="flex justify-between gap-2 sm:block">
          <dt className="text-muted-foreground">Spent so far</dt>
          <dd className="font-medium tabular-nums">{formatCents(state.spend)}</dd>
        </div>
        <div className="flex justify-between gap-2 sm:block">
          <dt className="text-muted-foreground">Projected by cycle end</dt>
          <dd className="font-medium tabular-nums">{formatCents(state.projected)}</dd>
        </div>
        <div className="flex justify-between gap-2 sm:block">
          <dt className="text-muted-foreground">Monthly budget</dt>
          <dd className="font-medium tabular-nums">{formatCents(budgetCents)}</dd>
        </div>
      </dl>
      <div
        aria-hidden
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
        data-level={level}
      >
        <div
          className={cn('h-full rounded-full', BAR_COLOUR[level])}
          style={{ width: `${Math.min(100, percent)}%` }}
        />
      </div>
      <p className="text-xs text-muted-foreground">
        <span className="font-medium text-foreground">{percent}% of the budget used.</span> Billing
        cycle {cycle}.{' '}
        {state.reached.length > 0
          ? `Thresholds reached: ${state.reached.map((percent) => `${percent}%`).join(', ')}.`
          : 'No threshold reached yet.'}
      </p>
    </div>
  );
}

/** The spend alerts section's content, composed into the billing page by app/. */
export function SpendAlertsContent({ orgSlug, canWrite }: { orgSlug: string; canWrite: boolean }) {
  const query = useSpendAlertQuery(orgSlug);
  if (query.isPending) {
    return (
      <LoadingRegion label="Loading spend alerts" className="space-y-3">
        <Skeleton className="h-4 w-64" />
        <Skeleton className="h-9 w-full" />
      </LoadingRegion>
    );
  }
  if (query.isError || !query.data) {
    return (
      <ErrorState
        title="Failed to retrieve spend alerts"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  return (
    <div className="space-y-5">
      <SpendSummary state={query.data} />
      <SpendAlertsForm orgSlug={orgSlug} state={query.data} canWrite={canWrite} />
    </div>
  );
}
