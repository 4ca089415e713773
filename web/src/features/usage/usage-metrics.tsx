import type { OrgUsage, Organization, Subscription } from '@meterline/domain';
import type { UseQueryResult } from '@tanstack/react-query';
import { ErrorState } from '../../components/error-state';
import { Skeleton } from '../../components/ui/skeleton';
import { useDailyUsageQuery } from '../../data/daily-usage-query';
import { cycleDayRange, daysBetween, toDay } from '../../lib/billing-days';
import { useNow } from '../../lib/use-now';
import { dailySeries } from '../../lib/usage-quota';
import { ComputeHours } from './compute-hours';
import { MetricCard } from './metric-card';
import { NotInPlan } from './not-in-plan';

/**
 * The metric cards and compute hours. The daily charts need the cycle's days, so they wait for
 * the subscription; the quotas do not.
 */
export function UsageMetrics({
  organization,
  usage,
  subscription,
  projectRef,
}: {
  organization: Organization;
  usage: OrgUsage;
  subscription: UseQueryResult<Subscription>;
  projectRef: string | null;
}) {
  const period = subscription.data
    ? { start: subscription.data.current_period_start, end: subscription.data.current_period_end }
    : null;
  const range = period ? { ...cycleDayRange(period), projectRef } : null;
  const daily = useDailyUsageQuery(organization.slug, range);
  const days = range ? daysBetween(range.start, range.end) : [];
  const today = toDay(useNow());

  const failed = subscription.isError ? subscription : daily.isError ? daily : null;
  const chartFallback = failed ? (
    <ErrorState
      title="Failed to retrieve daily usage"
      error={failed.error}
      onRetry={() => void failed.refetch()}
    />
  ) : daily.data ? undefined : (
    <Skeleton className="h-24 w-full" />
  );

  const records = usage.usages.filter((record) => record.available_in_plan);
  // What the plan does not include is listed once, not as a row of empty cards.
  const excluded = usage.usages.filter((record) => !record.available_in_plan);

  return (
    <div className="space-y-8">
      <section aria-labelledby="quota-usage-heading" className="space-y-3">
        <div>
          <h2 id="quota-usage-heading" className="text-base font-semibold tracking-tight">
            Usage against quota
          </h2>
          <p className="text-muted-foreground">
            {projectRef === null
              ? 'What the organization’s projects used in this cycle, against what the plan includes.'
              : 'Totals and quotas are the organization’s; the charts and the breakdown show the selected project.'}
          </p>
        </div>
        <div className="grid gap-4 md:grid-cols-2">
          {records.map((record) => (
            <MetricCard
              key={record.metric}
              record={record}
              planId={organization.plan.id}
              points={daily.data ? dailySeries(daily.data.data, record.metric, days) : null}
              until={today}
              selectedProject={projectRef}
              chart={chartFallback}
            />
          ))}
        </div>
        {excluded.length > 0 ? (
          <NotInPlan planId={organization.plan.id} metrics={excluded.map((r) => r.metric)} />
        ) : null}
      </section>
      {daily.data ? <ComputeHours data={daily.data.data} days={days} until={today} /> : null}
    </div>
  );
}
