import { formatCents } from '@meterline/domain';

/**
 * The monthly invoice to expect on the new plan, split so it can be checked by hand: the plan's fee,
 * and what today's projects and add-ons add beyond the compute credits.
 */
export function MonthlyEstimate({
  planName,
  planPrice,
  estimate,
}: {
  planName: string;
  planPrice: number | null;
  estimate: number;
}) {
  const extra = planPrice === null ? null : estimate - planPrice;
  return (
    <section aria-labelledby="upgrade-monthly-heading" className="space-y-2">
      <h3 id="upgrade-monthly-heading" className="text-sm font-semibold">
        Monthly invoice estimate
      </h3>
      {planPrice !== null && extra !== null && extra >= 0 ? (
        <table aria-labelledby="upgrade-monthly-heading" className="w-full text-sm">
          <thead className="sr-only">
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Amount per month</th>
            </tr>
          </thead>
          <tbody className="divide-y">
            <tr>
              <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                {`${planName} plan`}
              </th>
              <td className="py-1.5 text-right tabular-nums">{formatCents(planPrice)}</td>
            </tr>
            <tr>
              <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                Compute and add-ons of today&apos;s projects, after the compute credits
              </th>
              <td className="py-1.5 text-right align-top tabular-nums">{formatCents(extra)}</td>
            </tr>
          </tbody>
          <tfoot className="border-t-2">
            <tr>
              <th scope="row" className="pt-2 pr-3 text-left font-semibold">
                Per month
              </th>
              <td className="pt-2 text-right font-semibold tabular-nums">
                {formatCents(estimate)}
              </td>
            </tr>
          </tfoot>
        </table>
      ) : (
        <p>
          <span className="font-semibold tabular-nums">{formatCents(estimate)}</span>{' '}
          <span className="text-muted-foreground">per month</span>
        </p>
      )}
      <p className="text-xs text-muted-foreground">
        Usage beyond the included quota is billed on top.
      </p>
    </section>
  );
}
