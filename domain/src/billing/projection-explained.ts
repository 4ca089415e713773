import type { Cents } from '../money/cents.ts';
import { sumCents } from '../money/cents.ts';
import { formatUsage } from './format.ts';
import { groupInvoiceLines, type InvoiceLineGroup } from './invoice-grouping.ts';
import { ADDON_METRICS } from './addons.ts';
import { isComputeMetric } from './compute.ts';
import { USAGE_METRIC_DEFINITIONS, type UsageMetricDefinition } from './metrics.ts';
import type { PricedInvoice, UpcomingInvoiceLine } from './schemas.ts';

/** The breakdown's names of its grouped rows. */
export const INVOICE_GROUP_LABELS = {
  compute: 'Compute',
  replica_compute: 'Read replica compute',
  branching: 'Branching compute',
} as const;

/** One row of "how the projection is made": a row of the breakdown, so far and at the cycle's end. */
export interface ProjectionRow {
  readonly label: string;
  readonly soFar: Cents;
  readonly projected: Cents;
  /** How the projected amount follows from the amount so far, in a sentence a person can check. */
  readonly how: string;
}

export interface ProjectionExplained {
  /** How every row was projected, in one paragraph. */
  readonly summary: string;
  readonly rows: readonly ProjectionRow[];
  readonly soFar: Cents;
  readonly projected: Cents;
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);
/** "479 more hours". */
const moreHours = (hours: number) =>
  `${hours.toLocaleString('en-US')} more ${plural(hours, 'hour', 'hours')}`;

function keyOf(group: InvoiceLineGroup): string {
  return group.kind === 'line' ? `line:${group.lines[0]?.description ?? ''}` : group.kind;
}

function labelOf(group: InvoiceLineGroup): string {
  if (group.kind === 'line' || group.kind === 'plan') return group.lines[0]?.description ?? '';
  return INVOICE_GROUP_LABELS[group.kind];
}

const HOURLY = new Set<string>(ADDON_METRICS);

/** Whether a line bills hours of something that runs (compute of any kind, an add-on). */
function billsHours(line: UpcomingInvoiceLine): boolean {
  const metric = line.usage_metric;
  return metric !== null && (isComputeMetric(metric) || HOURLY.has(metric));
}

/** Hours per project (or of the line, without a breakdown) that a line bills. */
function hoursOf(line: UpcomingInvoiceLine): Map<string, number> {
  const key = (project: string) => `${line.description}|${project}`;
  if (line.breakdown.length === 0) return new Map([[key(''), line.usage_original ?? 0]]);
  return new Map(line.breakdown.map((entry) => [key(entry.project_ref), entry.hours ?? 0]));
}

/** How many resources (a line's projects) the projection keeps running: their hours grew. */
function runningCount(
  soFar: readonly UpcomingInvoiceLine[],
  projected: readonly UpcomingInvoiceLine[],
): number {
  const before = new Map(soFar.filter(billsHours).flatMap((line) => [...hoursOf(line)]));
  return projected
    .filter(billsHours)
    .flatMap((line) => [...hoursOf(line)])
    .filter(([key, hours]) => hours > (before.get(key) ?? 0)).length;
}

function howOf(
  group: InvoiceLineGroup | undefined,
  projected: InvoiceLineGroup,
  invoice: PricedInvoice,
): string {
  const {
    remaining_hours: remaining,
    measured_hours: measured,
    usage_hours_left: usageLeft,
  } = invoice.projection;
  const before = group?.lines ?? [];
  const line = projected.lines[0];
  if (projected.kind === 'plan') return 'Billed for the whole cycle';
  if (projected.kind !== 'line' || line === undefined) {
    const running = runningCount(before, projected.lines);
    if (running === 0) return 'Nothing running: as it stands';
    const credits = projected.lines.some((entry) => entry.usage_metric === null)
      ? ', less the compute credits'
      : '';
    return (
      `${running} ${plural(running, 'resource', 'resources')} running at today's size ` +
      `for ${moreHours(remaining)}${credits}`
    );
  }
  const metric = line.usage_metric;
  if (metric === null) return 'As it stands';
  if (billsHours(line)) {
    return runningCount(before, projected.lines) > 0
      ? `Running for ${moreHours(remaining)}`
      : 'Not running: as it stands';
  }
  const definition = (USAGE_METRIC_DEFINITIONS as Partial<Record<string, UsageMetricDefinition>>)[
    metric
  ];
  if (definition === undefined) return 'As it stands';
  const usedSoFar =
    before[0]?.usage_original ?? usageSoFarFromProjection(line, usageLeft, measured);
  if (definition.aggregation !== 'sum' || usageLeft === 0) {
    return `${formatUsage(metric, line.usage_original ?? 0)}: counted as it stands`;
  }
  const perDay = (usedSoFar * 24) / measured;
  return (
    `${formatUsage(metric, usedSoFar)} so far + ${formatUsage(metric, perDay)} a day ` +
    `for ${formatDays(usageLeft)} = ${formatUsage(metric, line.usage_original ?? 0)}`
  );
}

/** A line with no overage yet has no line so far: its usage so far is the projection scaled back. */
function usageSoFarFromProjection(
  line: UpcomingInvoiceLine,
  remaining: number,
  measured: number,
): number {
  return ((line.usage_original ?? 0) * measured) / (measured + remaining);
}

function formatDays(hours: number): string {
  const days = hours / 24;
  const text = Number.isInteger(days)
    ? days.toLocaleString('en-US')
    : days.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return `${text} ${plural(days, 'day', 'days')}`;
}

/**
 * The projection row by row, as the breakdown groups the invoice: each row so far, projected, and how.
 * The rows' projected amounts add up to `amount_projected` and their amounts so far to `amount_total`.
 */
export function explainProjection(invoice: PricedInvoice): ProjectionExplained {
  const soFarGroups = new Map(groupInvoiceLines(invoice.lines).map((g) => [keyOf(g), g]));
  const projectedGroups = groupInvoiceLines(invoice.projection.lines);
  const rows: ProjectionRow[] = projectedGroups.map((group) => {
    const before = soFarGroups.get(keyOf(group));
    return {
      label: labelOf(group),
      soFar: before?.total ?? 0,
      projected: group.total,
      how: howOf(before, group, invoice),
    };
  });
  // A row so far with nothing projected (not expected: the projection only adds) still shows.
  const projectedKeys = new Set(projectedGroups.map(keyOf));
  for (const [key, group] of soFarGroups) {
    if (projectedKeys.has(key)) continue;
    rows.push({
      label: labelOf(group),
      soFar: group.total,
      projected: 0,
      how: 'Not billed at the end',
    });
  }
  const { remaining_hours: remaining, measured_hours: measured } = invoice.projection;
  const summary =
    remaining === 0
      ? 'The cycle has ended: the projection is what was used.'
      : // The projection starts at the coming whole hour (the hour under way counts as used): a
        // time not yet reached is never named as where it starts.
        `Projected from now: what runs now keeps running at today's size for the ` +
        `${remaining.toLocaleString('en-US')} whole ${plural(remaining, 'hour', 'hours')} left in ` +
        `the cycle, and usage that adds up (egress, ` +
        `invocations, messages) keeps its rate so far, measured over ${measured.toLocaleString('en-US')} ` +
        `${plural(measured, 'hour', 'hours')}. Distinct users, sizes and peaks stay as they are now.`;
  return {
    summary,
    rows,
    soFar: sumCents(rows.map((row) => row.soFar)),
    projected: sumCents(rows.map((row) => row.projected)),
  };
}
