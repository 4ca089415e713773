import { featureText, PLAN_CARDS, type PlanId, type SubscriptionPreview } from '@meterline/domain';
import { Check } from 'lucide-react';
import { ErrorState } from '../../components/error-state';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { ChargeBreakdown } from './charge-breakdown';
import { MonthlyEstimate } from './monthly-estimate';

export const PREVIEW_FAILED = 'Failed to preview subscription';

/**
 * What the upgrade costs and gives, from the preview (priced without a card, so it is there before
 * one is added): the charge today line by line, the monthly invoice to expect, what the plan adds.
 */
export function UpgradeSummary({
  target,
  preview,
  error,
  onRetry,
  narrow = false,
}: {
  /** Beside a form: the features in one column. */
  narrow?: boolean;
  target: PlanId;
  preview: SubscriptionPreview | undefined;
  error: unknown;
  onRetry: () => void;
}) {
  const card = PLAN_CARDS[target];
  return (
    <div className="space-y-6">
      <section aria-labelledby="upgrade-charge-heading" className="space-y-2">
        <h3 id="upgrade-charge-heading" className="text-sm font-semibold">
          Charge today
        </h3>
        {error ? (
          <ErrorState title={PREVIEW_FAILED} error={error} onRetry={onRetry} />
        ) : preview ? (
          <ChargeBreakdown preview={preview} />
        ) : (
          <LoadingRegion label="Loading the charge" className="space-y-2">
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-4 w-2/3" />
          </LoadingRegion>
        )}
      </section>

      {preview ? (
        <MonthlyEstimate
          planName={card.name}
          planPrice={card.priceMonthly}
          estimate={preview.monthly_invoice_estimate}
        />
      ) : null}

      <section aria-labelledby="upgrade-features-heading" className="space-y-2">
        <h3 id="upgrade-features-heading" className="text-sm font-semibold">
          {`What the ${card.name} plan adds`}
        </h3>
        <ul className={narrow ? 'grid gap-1.5' : 'grid gap-1.5 sm:grid-cols-2'}>
          {card.features.map((feature) => (
            <li key={featureText(feature)} className="flex gap-2">
              <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
              <span>{featureText(feature)}</span>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
