import {
  COMPUTE_METRICS,
  QUOTA_METRICS,
  USAGE_METRIC_DEFINITIONS,
  rational,
  Rationals,
  type ComputeMetric,
  type QuotaMetric,
  type Rational,
} from '@meterline/domain';
import { rationalFromDecimal } from '../../db/numeric.ts';
import type { CycleUsageRow } from '../../repositories/usage-readings.ts';

// A cycle's usage roll-ups read exactly and added up, as pricing a cycle needs them: at its close, on
// the upcoming invoice, and again for what reaches a closed cycle late.

const COMPUTE = new Set<string>(COMPUTE_METRICS);
const QUOTA = new Set<string>(QUOTA_METRICS);

/** A cycle roll-up row with its decimals read exactly, once per read (cached reads skip it). */
export interface ExactUsageRow {
  project_id: string;
  metric: string;
  resource: string;
  sum: Rational;
  max: Rational;
  samples: number;
  /** The row as stored: what a close records as billed. */
  row: CycleUsageRow;
}

export function exactUsage(row: CycleUsageRow): ExactUsageRow {
  return {
    project_id: row.project_id,
    metric: row.metric,
    resource: row.resource,
    sum: rationalFromDecimal(row.usage_sum),
    max: rationalFromDecimal(row.usage_max),
    samples: row.samples,
    row,
  };
}

/** One compute resource's hours in a cycle. */
export interface ResourceHours {
  projectId: string;
  resource: string;
  metric: ComputeMetric;
  hours: Rational;
}

/** One project's value of a quota metric in a cycle, by the metric's aggregation. */
export interface ProjectValue {
  projectId: string;
  metric: QuotaMetric;
  value: Rational;
}

/** A cycle's roll-up rows added up: hours per compute resource, each project's value per metric. */
export function addUpUsage(rows: readonly ExactUsageRow[]): {
  hours: Map<string, ResourceHours>;
  values: ProjectValue[];
} {
  const hours = new Map<string, ResourceHours>();
  const values = new Map<string, ProjectValue>();
  for (const row of rows) {
    if (COMPUTE.has(row.metric)) {
      const metric = row.metric as ComputeMetric;
      const k = `${row.project_id}|${row.resource}|${metric}`;
      const hoursSoFar = hours.get(k)?.hours ?? rational(0);
      hours.set(k, {
        projectId: row.project_id,
        resource: row.resource,
        metric,
        hours: Rationals.add(hoursSoFar, row.sum),
      });
    } else if (QUOTA.has(row.metric)) {
      const metric = row.metric as QuotaMetric;
      const k = `${row.project_id}|${metric}`;
      const valueSoFar = values.get(k)?.value ?? rational(0);
      values.set(k, {
        projectId: row.project_id,
        metric,
        value: Rationals.add(valueSoFar, aggregate(metric, row)),
      });
    }
  }
  return { hours, values: [...values.values()] };
}

/** A project's cycle value of a metric, by the metric's aggregation. */
function aggregate(metric: QuotaMetric, row: ExactUsageRow): Rational {
  const definition = USAGE_METRIC_DEFINITIONS[metric as keyof typeof USAGE_METRIC_DEFINITIONS];
  switch (definition?.aggregation) {
    case 'average':
      return row.samples > 0 ? Rationals.divide(row.sum, rational(row.samples)) : rational(0);
    case 'max':
      return row.max;
    default:
      return row.sum;
  }
}

/** Each quota metric's organization total over roll-up rows: what a cycle's overage is priced on. */
export function usageTotals(
  rows: readonly CycleUsageRow[],
): Partial<Record<QuotaMetric, Rational>> {
  const totals: Partial<Record<QuotaMetric, Rational>> = {};
  for (const { metric, value } of addUpUsage(rows.map(exactUsage)).values) {
    totals[metric] = Rationals.add(totals[metric] ?? rational(0), value);
  }
  return totals;
}
