import { billingMetricName, PLAN_NAMES, type PlanId, type QuotaMetric } from '@meterline/domain';
import { Card } from '../../components/ui/card';

/** The metrics the plan does not offer at all, named once. */
export function NotInPlan({
  planId,
  metrics,
}: {
  planId: PlanId;
  metrics: readonly QuotaMetric[];
}) {
  return (
    <Card role="group" aria-labelledby="not-in-plan-heading" className="p-5">
      <h3 id="not-in-plan-heading" className="font-medium">
        Not included in the {PLAN_NAMES[planId]} plan
      </h3>
      <p className="mt-1 text-muted-foreground">They are available on paid plans.</p>
      <ul className="mt-3 flex flex-wrap gap-1.5">
        {metrics.map((metric) => (
          <li key={metric} className="rounded-full border bg-muted px-2.5 text-xs leading-6">
            {billingMetricName(metric)}
          </li>
        ))}
      </ul>
    </Card>
  );
}
