import type { ReactNode } from 'react';
import {
  billingMetricName,
  formatCents,
  formatUsage,
  isOverWarningThreshold,
  PLAN_NAMES,
  type PlanId,
  type UsageRecord,
  usageFigureNote,
} from '@meterline/domain';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { Notice } from '../../components/ui/notice';
import { cn } from '../../lib/cn';
import { formatQuotaPercent, quotaRatio } from '../../lib/usage-quota';
import { DailyChart, type DailyPoint } from './daily-chart';

function QuotaBar({ ratio, label, over }: { ratio: number; label: string; over: boolean }) {
  const tone = over ? 'bg-destructive' : ratio >= 0.8 ? 'bg-warning' : 'bg-primary';
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.min(100, Math.floor(ratio * 100))}
      aria-valuetext={`${formatQuotaPercent(ratio)} of the included quota`}
      className="h-2 overflow-hidden rounded-full bg-subtle"
    >
      <div
        className={cn('h-full rounded-full', tone)}
        style={{ width: `${Math.min(1, ratio) * 100}%` }}
      />
    </div>
  );
}

function limitBadge(record: UsageRecord) {
  if (!record.available_in_plan) return <Badge>Not in plan</Badge>;
  if (record.capped) return <Badge tone="neutral">Capped at quota</Badge>;
  // Only where there is usage to bill: an empty metric has nothing beyond its quota.
  if (record.unlimited && record.usage > 0) {
    return <Badge tone="primary">Billed beyond quota</Badge>;
  }
  return null;
}

/** Capped usage past the quota: the service is limited now, and how to lift it. */
function limitedBody(planId: PlanId): string {
  return planId === 'free'
    ? 'Usage past the quota is not billed on the Free plan, so this service is limited until the next billing cycle. Upgrade to raise the quota.'
    : 'The spend cap is on, so this service is limited until the next billing cycle. Turn the spend cap off to keep it running and pay for the usage beyond the quota.';
}

function warningBody(record: UsageRecord, planId: PlanId): string {
  if (record.unlimited) return 'Usage beyond the quota is billed at the plan’s rates.';
  if (planId === 'free') {
    return 'On the Free plan, usage past the quota is not billed: services are limited instead. Upgrade to raise the quota.';
  }
  return 'The spend cap is on: usage past the quota is not billed, and services are limited instead.';
}

export interface ProjectShareRow {
  ref: string;
  name: string;
  usage: number;
}

/** One metric of the cycle: usage against the included quota, day by day, and by project. */
export function MetricCard({
  record,
  planId,
  points,
  until,
  selectedProject,
  chart,
}: {
  record: UsageRecord;
  planId: PlanId;
  points: readonly DailyPoint[] | null;
  until?: string;
  selectedProject: string | null;
  /** Shown instead of the chart while the daily usage loads or when it failed. */
  chart?: ReactNode;
}) {
  const name = billingMetricName(record.metric);
  const ratio = quotaRatio(record);
  const format = (usage: number) => formatUsage(record.metric, usage);
  const warn = isOverWarningThreshold(record);
  const over = ratio !== null && ratio > 1 && record.capped;
  const headingId = `usage-${record.metric}`;
  const note = usageFigureNote(record.metric);
  const projects = record.project_allocations
    .filter((allocation) => selectedProject === null || allocation.ref === selectedProject)
    .sort((a, b) => b.usage - a.usage);

  return (
    <Card className="flex flex-col gap-4 p-5" role="group" aria-labelledby={headingId}>
      <div className="flex items-start justify-between gap-3">
        <h3 id={headingId} className="font-medium">
          {name}
        </h3>
        {limitBadge(record)}
      </div>

      <div className="space-y-2">
        <p className="flex flex-wrap items-baseline gap-x-1.5">
          <span className="text-lg font-semibold tabular-nums">{format(record.usage)}</span>
          {ratio !== null ? (
            <span className="text-muted-foreground">
              of {format(record.pricing_free_units)} included
            </span>
          ) : (
            <span className="text-muted-foreground">
              {record.available_in_plan
                ? 'no usage included'
                : `not in the ${PLAN_NAMES[planId]} plan`}
            </span>
          )}
          {ratio !== null ? (
            <span className="ml-auto text-muted-foreground tabular-nums">
              {formatQuotaPercent(ratio)}
            </span>
          ) : null}
        </p>
        {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
        {ratio !== null ? (
          <QuotaBar ratio={ratio} label={`${name} against its quota`} over={over} />
        ) : null}
        {record.cost > 0 ? (
          <p className="text-muted-foreground">
            Billed beyond the quota so far:{' '}
            <span className="font-medium text-foreground">{formatCents(record.cost)}</span>
          </p>
        ) : null}
      </div>

      {warn && ratio !== null ? (
        <Notice
          tone={over ? 'destructive' : 'warning'}
          title={
            over
              ? `${name} is limited: ${formatQuotaPercent(ratio)} of the included quota is used`
              : `You have used ${formatQuotaPercent(ratio)} of the included ${name}`
          }
        >
          {over ? limitedBody(planId) : warningBody(record, planId)}
        </Notice>
      ) : null}

      {chart ??
        (points === null ? null : points.some((point) => point.usage > 0) ? (
          <DailyChart label={name} points={points} format={format} until={until} />
        ) : (
          <p className="rounded-md bg-muted px-3 py-2 text-muted-foreground">
            {selectedProject === null
              ? 'No usage in this billing cycle yet.'
              : 'No usage by this project in this billing cycle yet.'}
          </p>
        ))}

      {projects.length > 0 ? (
        <div>
          <h4 className="mb-1.5 text-xs font-medium text-muted-foreground">By project</h4>
          <ul className="space-y-1">
            {projects.map((project) => (
              <li key={project.ref} className="flex items-baseline justify-between gap-3">
                <span className="truncate">{project.name}</span>
                <span className="text-muted-foreground tabular-nums">{format(project.usage)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  );
}
