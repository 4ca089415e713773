import { effectiveManagedBy, type Organization } from '@meterline/domain';
import { BarChart3 } from 'lucide-react';
import { Link } from '../../../lib/router';
import { ErrorState } from '../../../components/error-state';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';
import { LoadingRegion, Skeleton } from '../../../components/ui/skeleton';
import { useSubscriptionQuery } from '../../../data/subscription-query';
import { useUpcomingInvoiceQuery } from '../../../data/upcoming-invoice-query';
import { useNow } from '../../../lib/use-now';
import { BillingSection, type BillingSectionProps } from '../billing-section';
import { BillingCycleBar } from './billing-cycle-bar';
import { InvoiceBreakdown } from './invoice-breakdown';

export const COMPUTE_NOTE =
  'Additional compute projects start at $10/month and the first project is covered by Compute Credits.';

function UpcomingInvoiceSkeleton() {
  return (
    <LoadingRegion label="Loading upcoming invoice" className="space-y-3">
      {Array.from({ length: 5 }, (_, index) => (
        <div key={index} className="flex items-center justify-between gap-6">
          <Skeleton className="h-4 w-48 max-w-[60%]" />
          <Skeleton className="h-4 w-16" />
        </div>
      ))}
    </LoadingRegion>
  );
}

/** The cycle bar needs the subscription's period; cloud-marketplace orgs are billed there. */
function CycleBar({ organization }: { organization: Organization }) {
  const subscription = useSubscriptionQuery(organization.slug);
  const now = useNow();
  if (effectiveManagedBy(organization) === 'aws-marketplace') return null;
  if (subscription.isPending) return <Skeleton className="h-14 w-full" />;
  if (subscription.isError) {
    return (
      <ErrorState
        title="Failed to retrieve subscription"
        error={subscription.error}
        onRetry={() => void subscription.refetch()}
      />
    );
  }
  return <BillingCycleBar subscription={subscription.data} now={now} />;
}

function UpcomingInvoiceContent({ organization }: { organization: Organization }) {
  const upcoming = useUpcomingInvoiceQuery(organization.slug);
  // The cycle bar reads it too: one request.
  const subscription = useSubscriptionQuery(organization.slug);
  const usagePath = `/org/${encodeURIComponent(organization.slug)}/usage`;
  return (
    <div className="space-y-6">
      <CycleBar organization={organization} />
      {upcoming.isPending ? (
        <UpcomingInvoiceSkeleton />
      ) : upcoming.isError ? (
        <ErrorState
          title="Failed to retrieve upcoming invoice"
          error={upcoming.error}
          onRetry={() => void upcoming.refetch()}
        />
      ) : (
        <InvoiceBreakdown
          invoice={upcoming.data}
          credit={
            subscription.data
              ? {
                  balance: subscription.data.customer_balance,
                  billedViaPartner: subscription.data.billing_via_partner,
                }
              : undefined
          }
        />
      )}
      <Notice title="How compute is billed">{COMPUTE_NOTE}</Notice>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-muted-foreground">
          Usage against the included quota, day by day, is on the usage page.
        </p>
        <Button size="sm" asChild>
          <Link to={usagePath}>
            <BarChart3 aria-hidden />
            View usage
          </Link>
        </Button>
      </div>
    </div>
  );
}

/** Anchored as #breakdown, the spec's name for it. */
export function UpcomingInvoiceSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="breakdown" role={role}>
      <UpcomingInvoiceContent organization={organization} />
    </BillingSection>
  );
}
