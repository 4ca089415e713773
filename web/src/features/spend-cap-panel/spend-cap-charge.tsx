import { useId } from 'react';
import { cardBrandName, formatCents, type SpendCapPreview } from '@meterline/domain';
import { ErrorState } from '../../components/error-state';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';

/**
 * What confirming the draft charges now and to which card, from the preview the
 * toggle is charged by: the invoice turning the cap on issues (the overage accrued while it was off,
 * line by line, each naming its period), the credit it uses, the charge and the card; or that nothing is
 * charged now.
 */
export function SpendCapCharge({
  preview,
  error,
  onRetry,
}: {
  preview: SpendCapPreview | undefined;
  error: unknown;
  onRetry: () => void;
}) {
  const headingId = useId();
  if (error) {
    return (
      <ErrorState title="Failed to preview the spend cap change" error={error} onRetry={onRetry} />
    );
  }
  if (!preview) {
    return (
      <LoadingRegion label="Pricing the change" className="space-y-2">
        <Skeleton className="h-5 w-48" />
        <Skeleton className="h-12 w-full" />
      </LoadingRegion>
    );
  }
  const card = preview.payment_method;
  return (
    <section
      aria-labelledby={headingId}
      className="space-y-3 rounded-lg border bg-card p-4 text-sm"
      data-testid="spend-cap-charge"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="font-medium">
          Charged now
        </h3>
        <p className="text-lg font-semibold tabular-nums" data-testid="spend-cap-charge-today">
          {formatCents(preview.charge_today)}
        </p>
      </div>
      {preview.lines.length > 0 ? (
        <table className="w-full">
          <caption className="sr-only">The invoice turning the spend cap on issues</caption>
          <thead className="sr-only">
            <tr>
              <th scope="col">Item</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {preview.lines.map((line) => (
              <tr key={line.description}>
                <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                  {line.description}
                </th>
                <td className="py-1.5 text-right align-top whitespace-nowrap tabular-nums">
                  {formatCents(line.total_price)}
                </td>
              </tr>
            ))}
            {preview.credit_applied > 0 ? (
              <tr>
                <th scope="row" className="py-1.5 pr-3 text-left font-normal">
                  Credit applied from your balance
                </th>
                <td className="py-1.5 text-right whitespace-nowrap tabular-nums">
                  {formatCents(-preview.credit_applied)}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      ) : null}
      <p className="text-muted-foreground">{chargeSentence(preview, card)}</p>
    </section>
  );
}

function chargeSentence(preview: SpendCapPreview, card: SpendCapPreview['payment_method']): string {
  if (!preview.spend_cap) {
    return 'Nothing is charged now: usage beyond the quota from now on is billed with the cycle’s invoice.';
  }
  if (preview.billed_via_partner) {
    return 'The invoice for the usage beyond the quota so far is billed through your partner.';
  }
  if (preview.lines.length === 0) {
    return 'Nothing is charged now: no usage beyond the quota accrued while the spend cap was off.';
  }
  if (preview.charge_today === 0) {
    return 'Nothing is charged to a card: your credit balance covers the invoice.';
  }
  if (!card) {
    return 'No card is on file: add one under Payment methods before turning the spend cap on.';
  }
  return `Charged at once to your default card, ${cardBrandName(card.brand)} ending ${card.last4}, when you confirm.`;
}
