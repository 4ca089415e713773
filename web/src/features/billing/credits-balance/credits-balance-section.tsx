import { lazy, Suspense, useId, useState } from 'react';
import { formatCents, hasPermission } from '@meterline/domain';
import { useQueryClient } from '@tanstack/react-query';
import { Coins } from 'lucide-react';
import { ErrorState } from '../../../components/error-state';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { LoadingRegion, Skeleton } from '../../../components/ui/skeleton';
import { Tooltip } from '../../../components/ui/tooltip';
import { paymentsConfigQueryOptions } from '../../../data/payments-config-query';
import { useSubscriptionQuery } from '../../../data/subscription-query';
import { BillingSection, type BillingSectionProps } from '../billing-section';
import { useOnceOpened } from '../../../lib/use-once-opened';

// The dialog's code loads when the button is reached for (with the provider's configuration).
const loadTopUpDialog = () => import('./top-up-dialog');
const TopUpDialog = lazy(async () => ({ default: (await loadTopUpDialog()).TopUpDialog }));

export const TOP_UP_DENIED = 'You need additional permissions to top up credits';

export function CreditsBalanceSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="credits-balance" role={role}>
      {/* The frame renders this only with the read permission: no request without it. */}
      <CreditBalance
        slug={organization.slug}
        billedViaPartner={organization.billing_via_partner}
        canTopUp={hasPermission(role, 'billing_write:subscriptions')}
      />
    </BillingSection>
  );
}

/**
 * What the balance means, in plain words: the spec shows credit as a negative amount (§3), so it says at
 * once that the organization holds it, and where it goes. Billed via a partner, there is no Top Up here
 * to promise.
 */
function balanceExplanation(
  balance: number,
  partner: boolean,
): { label: string | null; text: string } {
  if (balance > 0) {
    return {
      label: 'Credit your organization holds',
      text: `Shown as a negative amount because it is taken off what you pay: ${formatCents(balance)} is applied to your next invoices before any payment method is charged.`,
    };
  }
  if (balance < 0) {
    return {
      label: 'Owed',
      text: `${formatCents(-balance)} is owed and will be added to the next invoice.`,
    };
  }
  return {
    label: null,
    text: partner ? 'No credit yet.' : 'No credit yet. A top-up prepays future invoices.',
  };
}

function CreditBalance({
  slug,
  billedViaPartner,
  canTopUp,
}: {
  slug: string;
  billedViaPartner: boolean;
  canTopUp: boolean;
}) {
  const subscription = useSubscriptionQuery(slug);
  const [open, setOpen] = useState(false);
  const mounted = useOnceOpened(open);
  const queryClient = useQueryClient();

  if (subscription.isPending) return <CreditBalanceSkeleton />;
  if (subscription.isError) {
    return (
      <ErrorState
        title="Failed to retrieve credit balance"
        error={subscription.error}
        onRetry={() => void subscription.refetch()}
      />
    );
  }

  const balance = subscription.data.customer_balance;
  // Credit is shown as a negative amount: it is taken off what the next invoices charge.
  const shown = formatCents(balance === 0 ? 0 : -balance);
  const partner = billedViaPartner || subscription.data.billing_via_partner;
  const explained = balanceExplanation(balance, partner);

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex min-w-0 items-start gap-3">
          <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-muted">
            <Coins aria-hidden className="size-5 text-muted-foreground" />
          </div>
          <dl className="min-w-0">
            <dt className="text-xs font-medium text-muted-foreground">Credit balance</dt>
            <dd className="text-2xl font-semibold tracking-tight tabular-nums">{shown}</dd>
            <dd className="text-muted-foreground">
              {explained.label ? (
                <Badge tone={balance > 0 ? 'success' : 'warning'} className="mr-2 align-middle">
                  {explained.label}
                </Badge>
              ) : null}
              {explained.text}
            </dd>
          </dl>
        </div>
        {partner ? null : (
          <TopUpButton
            canTopUp={canTopUp}
            onClick={() => setOpen(true)}
            onIntent={() => {
              void queryClient.prefetchQuery(paymentsConfigQueryOptions());
              void loadTopUpDialog().catch(() => undefined);
            }}
          />
        )}
      </div>
      <p className="border-t pt-4 text-xs text-muted-foreground">
        Credits are applied to future invoices only. They never expire and are not refundable.
      </p>
      {canTopUp && !partner && mounted ? (
        <Suspense fallback={null}>
          <TopUpDialog slug={slug} open={open} onOpenChange={setOpen} />
        </Suspense>
      ) : null}
    </div>
  );
}

function TopUpButton({
  canTopUp,
  onClick,
  onIntent,
}: {
  canTopUp: boolean;
  onClick: () => void;
  onIntent: () => void;
}) {
  const reasonId = useId();
  if (!canTopUp) {
    return (
      <Tooltip content={TOP_UP_DENIED}>
        {/* A disabled button takes no focus or hover: the wrapper carries the tooltip. */}
        <span
          tabIndex={0}
          aria-describedby={reasonId}
          className="inline-flex self-start rounded-md"
        >
          <Button disabled>Top Up</Button>
          <span id={reasonId} className="sr-only">
            {TOP_UP_DENIED}
          </span>
        </span>
      </Tooltip>
    );
  }
  return (
    <Button className="self-start" onClick={onClick} onPointerEnter={onIntent} onFocus={onIntent}>
      Top Up
    </Button>
  );
}

function CreditBalanceSkeleton() {
  return (
    <LoadingRegion label="Loading credit balance" className="flex items-center justify-between">
      <div className="flex items-center gap-3">
        <Skeleton round className="size-10" />
        <div className="space-y-2">
          <Skeleton className="h-3 w-16" />
          <Skeleton className="h-7 w-28" />
        </div>
      </div>
      <Skeleton className="h-9 w-24" />
    </LoadingRegion>
  );
}
