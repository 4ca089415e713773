import { useId } from 'react';
import { formatCents, formatPeriod, type SubscriptionPreview } from '@meterline/domain';

/**
 * The charge today, line by line as the change invoice will have it (product-decisions §9): each line
 * with the period it pays for (or gives back), their total, the credit applied, and the charge. Every
 * figure can be checked by hand: the lines add up to the total, and the total less the credit is the
 * charge.
 */
export function ChargeBreakdown({ preview }: { preview: SubscriptionPreview }) {
  const captionId = useId();
  const hasCredit = preview.credit_applied > 0;
  return (
    <div className="space-y-2">
      <table aria-labelledby={captionId} className="w-full text-sm">
        <caption id={captionId} className="sr-only">
          Charge today
        </caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Amount</th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {preview.breakdown.map((line, index) => (
            <tr key={`${line.kind}-${index}`}>
              <th scope="row" className="py-2 pr-3 text-left font-normal">
                <span className="block">{line.description}</span>
                <span className="block text-xs text-muted-foreground">
                  {formatPeriod(line.period_start, line.period_end)}
                </span>
              </th>
              <td className="py-2 text-right align-top tabular-nums whitespace-nowrap">
                {formatCents(line.total_price)}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2">
          {hasCredit ? (
            <>
              <tr>
                <th scope="row" className="pt-2 pr-3 text-left font-normal text-muted-foreground">
                  Total
                </th>
                <td className="pt-2 text-right tabular-nums">{formatCents(preview.total)}</td>
              </tr>
              <tr>
                <th scope="row" className="py-1 pr-3 text-left font-normal text-muted-foreground">
                  Credit applied
                </th>
                <td className="py-1 text-right tabular-nums">
                  {formatCents(-preview.credit_applied)}
                </td>
              </tr>
            </>
          ) : null}
          <tr>
            <th scope="row" className="pt-2 pr-3 text-left font-semibold">
              Charge today
            </th>
            <td className="pt-2 text-right font-semibold tabular-nums">
              {formatCents(preview.charge_today)}
            </td>
          </tr>
        </tfoot>
      </table>
      {preview.balance_after > 0 ? (
        <p className="text-xs text-muted-foreground">
          {`Credit left on the balance after the change: ${formatCents(preview.balance_after)}.`}
        </p>
      ) : null}
    </div>
  );
}
