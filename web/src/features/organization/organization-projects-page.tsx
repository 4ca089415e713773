import type { Project } from '@meterline/domain';
import { ChevronRight, FolderOpen } from 'lucide-react';
import { Link } from '../../lib/router';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { Card } from '../../components/ui/card';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { useProjectsQuery } from '../../data/projects-query';
import { PlanBadge } from '../../layout/plan-badge';
import { computeSizeName, ProjectStatusBadge } from '../../components/project-display';
import { useOrganization } from '../../session/use-organization';
import { usePageTitle } from '../../lib/page-title';

const COLUMNS =
  'sm:grid sm:grid-cols-[minmax(0,2fr)_minmax(0,1.2fr)_minmax(0,1fr)_minmax(0,0.8fr)_1rem] sm:items-center sm:gap-4';

function ProjectRow({ project }: { project: Project }) {
  return (
    <li>
      <Link
        to={`/project/${encodeURIComponent(project.ref)}`}
        className={`group flex flex-col gap-1.5 px-4 py-3.5 transition-colors hover:bg-muted/60 focus-visible:-outline-offset-2 sm:px-5 ${COLUMNS}`}
      >
        <div className="flex min-w-0 items-center justify-between gap-3">
          <span className="truncate font-medium">{project.name}</span>
          <span className="sm:hidden">
            <ProjectStatusBadge status={project.status} />
          </span>
        </div>
        <div className="flex items-center gap-3 text-muted-foreground sm:contents">
          <span className="truncate font-mono text-[13px]">
            <span className="sr-only">Reference </span>
            {project.ref}
          </span>
          <span className="max-sm:hidden">
            <ProjectStatusBadge status={project.status} />
          </span>
          <span aria-hidden className="sm:hidden">
            ·
          </span>
          <span>
            <span className="sr-only">Compute size </span>
            {computeSizeName(project.compute_size)}
          </span>
          <ChevronRight
            aria-hidden
            className="size-4 text-muted-foreground/60 transition-transform group-hover:translate-x-0.5 max-sm:hidden"
          />
        </div>
      </Link>
    </li>
  );
}

function ProjectsSkeleton() {
  return (
    <LoadingRegion label="Loading projects">
      <Card>
        <ul className="divide-y">
          {Array.from({ length: 3 }, (_, index) => (
            <li key={index} className={`flex flex-col gap-2 px-4 py-4 sm:px-5 ${COLUMNS}`}>
              <Skeleton className="h-4 w-44" />
              <Skeleton className="h-4 w-24" />
              <Skeleton className="h-4 w-16 max-sm:hidden" />
              <Skeleton className="h-4 w-14 max-sm:hidden" />
            </li>
          ))}
        </ul>
      </Card>
    </LoadingRegion>
  );
}

/** The organization's home: its projects with name, ref, status and compute size. */
export function OrganizationProjectsPage() {
  const organization = useOrganization();
  const projects = useProjectsQuery(organization.slug);
  usePageTitle(organization.name);

  return (
    <>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            {organization.name}
            <PlanBadge planId={organization.plan.id} />
          </span>
        }
        description="Projects in this organization and the compute each one runs on."
      />
      <section aria-labelledby="projects-heading" className="space-y-3">
        <div className="flex items-baseline justify-between">
          <h2 id="projects-heading" className="text-base font-semibold">
            Projects
          </h2>
          {projects.data && projects.data.length > 0 ? (
            <span className="text-muted-foreground">
              {projects.data.length} {projects.data.length === 1 ? 'project' : 'projects'}
            </span>
          ) : null}
        </div>
        {projects.isPending ? (
          <ProjectsSkeleton />
        ) : projects.isError ? (
          <ErrorState
            title="Failed to retrieve projects"
            error={projects.error}
            onRetry={() => void projects.refetch()}
          />
        ) : projects.data.length === 0 ? (
          <EmptyState
            icon={FolderOpen}
            title="No projects yet"
            description="Projects created in this organization will be listed here with their status and compute size."
          />
        ) : (
          <Card className="overflow-hidden">
            <div
              aria-hidden
              className={`hidden border-b bg-muted/50 px-5 py-2 text-xs font-medium text-muted-foreground ${COLUMNS}`}
            >
              <span>Name</span>
              <span>Reference</span>
              <span>Status</span>
              <span>Compute</span>
              <span />
            </div>
            <ul className="divide-y">
              {projects.data.map((project) => (
                <ProjectRow key={project.ref} project={project} />
              ))}
            </ul>
          </Card>
        )}
      </section>
    </>
  );
}
