import {
  billingMetricName,
  COMPUTE_METRICS,
  formatAverageHours,
  formatUsage,
  type DailyUsage,
} from '@meterline/domain';
import { Card } from '../../components/ui/card';
import { dailySeries } from '../../lib/usage-quota';
import { DailyChart } from './daily-chart';

/**
 * Compute hours by size (and branching) in this cycle, from the daily usage: the total, and the
 * average a day over the days it ran, which is what the size costs day to day.
 */
export function ComputeHours({
  data,
  days,
  until,
}: {
  data: DailyUsage['data'];
  days: readonly string[];
  until: string;
}) {
  const metrics = COMPUTE_METRICS.filter((metric) =>
    data.some((row) => row.metric === metric && row.usage > 0),
  );
  if (metrics.length === 0) return null;

  return (
    <section aria-labelledby="compute-hours-heading" className="space-y-3">
      <div>
        <h2 id="compute-hours-heading" className="text-base font-semibold tracking-tight">
          Compute hours
        </h2>
        <p className="text-muted-foreground">
          Hours each compute size ran in this cycle, across the selected projects.
        </p>
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        {metrics.map((metric) => {
          const points = dailySeries(data, metric, days);
          const ran = points.filter((point) => point.usage > 0);
          const total = ran.reduce((sum, point) => sum + point.usage, 0);
          const name = billingMetricName(metric);
          const headingId = `compute-${metric}`;
          return (
            <Card key={metric} role="group" aria-labelledby={headingId} className="space-y-3 p-5">
              <h3 id={headingId} className="font-medium">
                {name}
              </h3>
              <p className="flex flex-wrap items-baseline gap-x-1.5">
                <span className="text-lg font-semibold tabular-nums">
                  {formatUsage(metric, total)}
                </span>
                <span className="text-muted-foreground">
                  {formatAverageHours(total / Math.max(1, ran.length))}
                  <span className="sr-only"> per day</span>
                </span>
              </p>
              <DailyChart
                label={`${name} compute`}
                points={points}
                until={until}
                format={(usage) => formatUsage(metric, usage)}
              />
            </Card>
          );
        })}
      </div>
    </section>
  );
}
