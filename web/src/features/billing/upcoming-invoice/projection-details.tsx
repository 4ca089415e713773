import { explainProjection, formatCents, type UpcomingInvoice } from '@meterline/domain';
import { ChevronRight } from 'lucide-react';
import { cn } from '../../../lib/cn';

const NUMERIC = 'py-2 pl-3 text-right tabular-nums whitespace-nowrap align-top';

/** The disclosure beside "Projected total": it shows or hides how the projection was made. */
export function ProjectionToggle({
  expanded,
  controls,
  onToggle,
}: {
  expanded: boolean;
  controls: string;
  onToggle: () => void;
}) {
  return (
    <button
      type="button"
      aria-expanded={expanded}
      aria-controls={controls}
      onClick={onToggle}
      className="-ml-1 mt-1 flex items-center gap-0.5 rounded-md px-1 text-xs font-normal text-primary-soft-foreground underline-offset-2 hover:underline"
    >
      <ChevronRight
        aria-hidden
        className={cn('size-3.5 shrink-0 transition-transform', expanded && 'rotate-90')}
      />
      How is this projected?
    </button>
  );
}

/**
 * How the projected total is made, row by row as the breakdown groups the invoice: each row's amount
 * so far, projected, and why; the two columns add up to the two totals above.
 */
export function ProjectionDetails({ invoice, id }: { invoice: UpcomingInvoice; id: string }) {
  const explained = explainProjection(invoice);
  return (
    <section
      id={id}
      aria-label="How the projected total is made"
      className="space-y-3 rounded-lg border bg-muted/40 p-4 text-sm"
    >
      <p className="text-muted-foreground">{explained.summary}</p>
      <table className="w-full">
        <caption className="sr-only">Amounts so far and projected to the end of the cycle</caption>
        <thead className="text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="pb-1 text-left font-medium">
              Item
            </th>
            <th scope="col" className="pb-1 pl-3 text-right font-medium">
              So far
            </th>
            <th scope="col" className="pb-1 pl-3 text-right font-medium">
              Projected
            </th>
          </tr>
        </thead>
        <tbody>
          {explained.rows.map((row) => (
            <tr key={row.label} className="border-t">
              <th scope="row" className="py-2 text-left align-top font-medium">
                {row.label}
                <span className="block text-xs font-normal text-muted-foreground">{row.how}</span>
              </th>
              <td className={NUMERIC}>{formatCents(row.soFar)}</td>
              <td className={NUMERIC}>{formatCents(row.projected)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-foreground/15">
          <tr>
            <th scope="row" className="py-2 text-left font-medium">
              Total
            </th>
            <td className={cn(NUMERIC, 'font-medium')}>{formatCents(explained.soFar)}</td>
            <td className={cn(NUMERIC, 'font-semibold')}>{formatCents(explained.projected)}</td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}
