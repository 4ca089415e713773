import type { Readable } from 'node:stream';
import { isComputeMetric, USAGE_METRIC_DEFINITIONS, type BillingMetric } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { dailyUsage, dailyValue } from '../../repositories/usage-readings.ts';
import { csvStream } from './csv-export.ts';

export const USAGE_CSV_COLUMNS = [
  'date',
  'project_ref',
  'project_name',
  'metric',
  'usage',
  'unit',
] as const;

const DAY_MS = 86_400_000;
/** Days read per batch: a month of every metric of every project. */
const BATCH_DAYS = 31;

/** The unit a metric's usage is written in (its metering unit: bytes, hours, counts). */
export function usageUnit(metric: string): string {
  if (isComputeMetric(metric as BillingMetric)) return 'hours';
  return USAGE_METRIC_DEFINITIONS[metric as keyof typeof USAGE_METRIC_DEFINITIONS]?.unit ?? '';
}

const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Each project's usage per metric and day between two days (inclusive), a month at a time. */
async function* usageRows(
  db: Db,
  organizationId: string,
  start: string,
  end: string,
  projectId: string | null,
) {
  const projects = await db
    .selectFrom('projects')
    .select(['id', 'ref', 'name'])
    .where('organization_id', '=', organizationId)
    .execute();
  const byId = new Map(projects.map((project) => [project.id, project]));
  for (let from = start; from <= end; from = addDays(from, BATCH_DAYS)) {
    const to = addDays(from, BATCH_DAYS - 1) < end ? addDays(from, BATCH_DAYS - 1) : end;
    const rows = await dailyUsage(db, organizationId, from, to, projectId);
    rows.sort(
      (a, b) =>
        a.day.localeCompare(b.day) ||
        (byId.get(a.project_id)?.ref ?? '').localeCompare(byId.get(b.project_id)?.ref ?? '') ||
        a.metric.localeCompare(b.metric),
    );
    for (const row of rows) {
      const project = byId.get(row.project_id);
      yield [
        row.day,
        project?.ref ?? null,
        project?.name ?? null,
        row.metric,
        dailyValue(row),
        usageUnit(row.metric),
      ] as const;
    }
  }
}

export function usageCsv(
  db: Db,
  organizationId: string,
  start: string,
  end: string,
  projectId: string | null,
): Readable {
  return csvStream(USAGE_CSV_COLUMNS, usageRows(db, organizationId, start, end, projectId));
}
