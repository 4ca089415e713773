import { formatPeriod, hasPermission, PLAN_NAMES, type Organization } from '@meterline/domain';
import { Download } from 'lucide-react';
import { useSearchParams } from '../../lib/router';
import { useOrganizationRole } from '../../session/profile-context';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { PermissionNotice } from '../../components/permission-notice';
import { useOrganization } from '../../session/use-organization';
import { useOrgUsageQuery } from '../../data/org-usage-query';
import { useProjectsQuery } from '../../data/projects-query';
import { useSubscriptionQuery } from '../../data/subscription-query';
import { usageExportPath } from '../../data/export-paths';
import { Button } from '../../components/ui/button';
import { UsageMetrics } from './usage-metrics';
import { ProjectFilter } from './project-filter';
import { usePageTitle } from '../../lib/page-title';

function UsageSkeleton() {
  return (
    <LoadingRegion label="Loading usage" className="grid gap-4 md:grid-cols-2">
      {Array.from({ length: 4 }, (_, index) => (
        <div key={index} className="space-y-3 rounded-lg border bg-card p-5">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-6 w-48" />
          <Skeleton className="h-2 w-full" />
          <Skeleton className="h-20 w-full" />
        </div>
      ))}
    </LoadingRegion>
  );
}

/** The cycle's days so far (UTC, inclusive): from its first day to today, or its last day. */
function cycleDays(subscription: { current_period_start: number; current_period_end: number }) {
  const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
  const last = Math.min(Date.now() / 1000, subscription.current_period_end - 1);
  return { start: day(subscription.current_period_start), end: day(last) };
}

function UsageContent({ organization }: { organization: Organization }) {
  const [params, setParams] = useSearchParams();
  const usage = useOrgUsageQuery(organization.slug);
  const subscription = useSubscriptionQuery(organization.slug);
  const projects = useProjectsQuery(organization.slug);
  const projectList = projects.data ?? [];
  const requested = params.get('projectRef');
  const projectRef = projectList.some((p) => p.ref === requested) ? requested : null;

  const setProject = (ref: string | null) =>
    setParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (ref) next.set('projectRef', ref);
        else next.delete('projectRef');
        return next;
      },
      { replace: true },
    );

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-muted-foreground">
          {subscription.data ? (
            <>
              Current billing cycle:{' '}
              <span className="text-foreground">
                {formatPeriod(
                  subscription.data.current_period_start,
                  subscription.data.current_period_end,
                )}
              </span>
            </>
          ) : (
            'The current billing cycle'
          )}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          {projectList.length > 0 ? (
            <ProjectFilter projects={projectList} value={projectRef} onChange={setProject} />
          ) : null}
          {subscription.data ? (
            <Button size="sm" asChild>
              <a
                href={usageExportPath(organization.slug, {
                  ...cycleDays(subscription.data),
                  projectRef,
                })}
                download
              >
                <Download aria-hidden />
                Export CSV
              </a>
            </Button>
          ) : null}
        </div>
      </div>
      {usage.isPending ? (
        <UsageSkeleton />
      ) : usage.isError ? (
        <ErrorState
          title="Failed to retrieve usage"
          error={usage.error}
          onRetry={() => void usage.refetch()}
        />
      ) : (
        <UsageMetrics
          organization={organization}
          usage={usage.data}
          subscription={subscription}
          projectRef={projectRef}
        />
      )}
    </div>
  );
}

/** /org/:slug/usage (also /organization/:slug/usage): the cycle's usage against the plan. */
export function UsagePage() {
  const organization = useOrganization();
  const role = useOrganizationRole(organization.slug);
  usePageTitle('Usage', organization.name);
  return (
    <>
      <PageHeader
        title="Usage"
        description={`Usage of ${organization.name}'s projects against the quota included in the ${PLAN_NAMES[organization.plan.id]} plan.`}
      />
      {hasPermission(role, 'billing_read:subscriptions') ? (
        <UsageContent organization={organization} />
      ) : (
        <PermissionNotice action="view this organization's usage" />
      )}
    </>
  );
}
