import { useId } from 'react';
import {
  formatCents,
  formatPeriod,
  type PreviewLine,
  type SubscriptionPreview,
} from '@meterline/domain';

/** One amount of the table; negative amounts (credits) read as such. */
function Amount({ cents, className }: { cents: number; className?: string }) {
  return (
    <td className={`text-right align-top whitespace-nowrap tabular-nums ${className ?? ''}`}>
      {formatCents(cents)}
    </td>
  );
}

function LineRow({ line, showPeriod }: { line: PreviewLine; showPeriod: boolean }) {
  return (
    <tr>
      <th scope="row" className="py-2 pr-3 text-left font-normal">
        <span className="block">{line.description}</span>
        {showPeriod ? (
          <span className="block text-xs text-muted-foreground">
            {formatPeriod(line.period_start, line.period_end)}
          </span>
        ) : null}
      </th>
      <Amount cents={line.total_price} className="py-2" />
    </tr>
  );
}

/**
 * The charge today, line by line as the change invoice will have it (product-decisions §9): the
 * ending cycle's usage so far (one period for all of it), the unused time given back and the new
 * plan's fee, each with its period; their total, the credit applied, and the charge. Every figure can
 * be checked by hand: the lines add up to the total, and the total less the credit is the charge.
 */
export function ChargeBreakdown({ preview }: { preview: SubscriptionPreview }) {
  const captionId = useId();
  const hasCredit = preview.credit_applied > 0;
  const usage = preview.breakdown.filter((line) => line.kind === 'usage');
  const changes = preview.breakdown.filter((line) => line.kind !== 'usage');
  const first = usage[0];
  // The ending cycle's usage shares one period; late usage of an earlier cycle would state its own.
  const onePeriod =
    first !== undefined &&
    usage.every(
      (line) => line.period_start === first.period_start && line.period_end === first.period_end,
    );
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
        {first ? (
          <tbody className="divide-y border-b">
            <tr>
              <th
                scope="rowgroup"
                colSpan={2}
                className="pb-1 text-left text-xs font-medium text-muted-foreground"
              >
                {onePeriod
                  ? `Usage so far this cycle, ${formatPeriod(first.period_start, first.period_end)}`
                  : 'Usage so far'}
              </th>
            </tr>
            {usage.map((line, index) => (
              <LineRow key={`usage-${index}`} line={line} showPeriod={!onePeriod} />
            ))}
          </tbody>
        ) : null}
        <tbody className="divide-y">
          {changes.map((line, index) => (
            <LineRow key={`${line.kind}-${index}`} line={line} showPeriod />
          ))}
        </tbody>
        <tfoot className="border-t-2">
          {hasCredit ? (
            <>
              <tr>
                <th scope="row" className="pt-2 pr-3 text-left font-normal text-muted-foreground">
                  Total
                </th>
                <Amount cents={preview.total} className="pt-2" />
              </tr>
              <tr>
                <th scope="row" className="py-1 pr-3 text-left font-normal text-muted-foreground">
                  Credit applied
                </th>
                <Amount cents={-preview.credit_applied} className="py-1" />
              </tr>
            </>
          ) : null}
          <tr>
            <th scope="row" className="pt-2 pr-3 text-left font-semibold">
              Charge today
            </th>
            <Amount cents={preview.charge_today} className="pt-2 font-semibold" />
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
