import { formatInvoiceDate, hasPermission, PLAN_NAMES, type Organization } from '@meterline/domain';
import { useSearchParams } from 'react-router';
import { useOrganizationRole } from '../../session/profile-context';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { PermissionNotice } from '../../components/permission-notice';
import { useOrganization } from '../../session/use-organization';
import { useOrgUsageQuery } from '../../data/org-usage-query';
import { useProjectsQuery } from '../../data/projects-query';
import { useSubscriptionQuery } from '../../data/subscription-query';
import { UsageMetrics } from './usage-metrics';
import { ProjectFilter } from './project-filter';

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
                {formatInvoiceDate(subscription.data.current_period_start)} –{' '}
                {formatInvoiceDate(subscription.data.current_period_end)}
              </span>
            </>
          ) : (
            'The current billing cycle'
          )}
        </p>
        {projectList.length > 0 ? (
          <ProjectFilter projects={projectList} value={projectRef} onChange={setProject} />
        ) : null}
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
  return (
    <>
      <title>{`Usage · ${organization.name} · Meterline`}</title>
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
