import type { ReactNode } from 'react';
import { formatInvoiceDate, type Project } from '@meterline/domain';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, CreditCard, Gauge } from 'lucide-react';
import { Link, useParams } from '../../lib/router';
import { useProfile } from '../../session/profile-context';
import { ErrorState } from '../../components/error-state';
import { NotFoundScreen } from '../../components/not-found-screen';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Notice } from '../../components/ui/notice';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { isApiError } from '../../data/api-client';
import { projectKeys } from '../../data/keys';
import { useProjectQuery } from '../../data/project-query';
import { AppHeader } from '../../layout/app-header';
import { OrganizationSwitcher } from '../../layout/organization-switcher';
import { PLACEHOLDER_SLUG } from '../../lib/last-organization';
import { computeSizeName, ProjectStatusBadge } from '../../components/project-display';
import { PageTitle, usePageTitle } from '../../lib/page-title';

/**
 * A 402 names no organization; a projects list seen earlier in this session usually does. Without
 * one, the placeholder slug opens the organization the user last visited.
 */
function useKnownOrganizationOf(ref: string): string | undefined {
  const queryClient = useQueryClient();
  const detail = queryClient.getQueryData<Project>(projectKeys.detail(ref));
  if (detail) return detail.organization_slug;
  for (const [, projects] of queryClient.getQueriesData<Project[]>({ queryKey: projectKeys.all })) {
    const match = Array.isArray(projects) ? projects.find((p) => p.ref === ref) : undefined;
    if (match) return match.organization_slug;
  }
  return undefined;
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 px-5 py-3.5 sm:flex-row sm:items-center sm:gap-4 sm:px-6">
      <dt className="w-40 shrink-0 text-muted-foreground">{label}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

function ProjectDetails({ project }: { project: Project }) {
  const profile = useProfile();
  const org = profile.organizations.find((o) => o.slug === project.organization_slug);
  const orgPath = `/org/${encodeURIComponent(project.organization_slug)}`;
  usePageTitle(project.name);
  return (
    <>
      <Link
        to={orgPath}
        className="mb-6 inline-flex items-center gap-1.5 rounded-md text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft aria-hidden className="size-4" />
        {org?.name ?? 'Projects'}
      </Link>
      <div className="mb-8 flex flex-wrap items-center gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{project.name}</h1>
        <ProjectStatusBadge status={project.status} />
      </div>
      <div className="space-y-5">
        <Card>
          <h2 className="border-b px-5 py-4 text-base font-semibold sm:px-6">Details</h2>
          <dl className="divide-y">
            <Detail label="Reference">
              <span className="font-mono text-[13px]">{project.ref}</span>
            </Detail>
            <Detail label="Compute size">{computeSizeName(project.compute_size)}</Detail>
            <Detail label="Organization">
              <Link to={orgPath} className="font-medium underline-offset-2 hover:underline">
                {org?.name ?? project.organization_slug}
              </Link>
            </Detail>
            <Detail label="Created">{formatInvoiceDate(project.inserted_at)}</Detail>
          </dl>
        </Card>
        <Card className="flex flex-col gap-4 px-5 py-4 sm:flex-row sm:items-center sm:px-6 sm:py-5">
          <div className="min-w-0 flex-1">
            <h2 className="text-base font-semibold">Billing</h2>
            <p className="mt-1 text-muted-foreground">
              This project's compute and usage are billed to {org?.name ?? 'its organization'}.
            </p>
          </div>
          <div className="flex gap-2">
            <Button size="sm" asChild>
              <Link to={`${orgPath}/usage`}>
                <Gauge aria-hidden />
                Usage
              </Link>
            </Button>
            <Button size="sm" asChild>
              <Link to={`${orgPath}/billing`}>
                <CreditCard aria-hidden />
                Billing
              </Link>
            </Button>
          </div>
        </Card>
      </div>
    </>
  );
}

function ProjectSkeleton() {
  return (
    <LoadingRegion label="Loading project">
      <Skeleton className="mb-6 h-4 w-24" />
      <Skeleton className="mb-8 h-7 w-64 max-w-full" />
      <div className="rounded-lg border bg-card p-6">
        <Skeleton className="h-4 w-32" />
        <Skeleton className="mt-5 h-3 w-full max-w-md" />
        <Skeleton className="mt-3 h-3 w-full max-w-sm" />
        <Skeleton className="mt-3 h-3 w-2/3 max-w-xs" />
      </div>
    </LoadingRegion>
  );
}

/** /project/:ref. A restricted organization's project answers 402: say why, and where to fix it. */
export function ProjectPage() {
  const { ref = '' } = useParams();
  const project = useProjectQuery(ref);
  const knownSlug = useKnownOrganizationOf(ref);
  const orgSlug = project.data?.organization_slug ?? knownSlug;
  const header = <AppHeader userMenu context={<OrganizationSwitcher currentSlug={orgSlug} />} />;

  if (isApiError(project.error, 404) && !project.data) {
    return (
      <>
        {header}
        <NotFoundScreen />
      </>
    );
  }

  let body: ReactNode;
  if (project.data) {
    body = <ProjectDetails project={project.data} />;
  } else if (isApiError(project.error, 402)) {
    body = (
      <>
        <PageTitle parts={['Project restricted']} />
        <h1 className="mb-6 text-2xl font-semibold tracking-tight">
          Project <span className="font-mono text-xl">{ref}</span>
        </h1>
        <Notice
          tone="destructive"
          role="alert"
          title="This project is unavailable"
          actions={
            <Button size="sm" asChild>
              <Link to={`/org/${encodeURIComponent(orgSlug ?? PLACEHOLDER_SLUG)}/billing`}>
                <CreditCard aria-hidden />
                Go to billing
              </Link>
            </Button>
          }
        >
          {project.error.message}
        </Notice>
      </>
    );
  } else if (project.isError) {
    body = (
      <ErrorState
        title="Failed to load this project"
        error={project.error}
        onRetry={() => void project.refetch()}
      />
    );
  } else {
    body = <ProjectSkeleton />;
  }

  return (
    <>
      {header}
      <main
        id="main"
        className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10 lg:px-8"
      >
        <div className="max-w-4xl">{body}</div>
      </main>
    </>
  );
}
