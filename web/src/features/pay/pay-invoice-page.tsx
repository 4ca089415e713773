import {
  canPayNow,
  formatCents,
  formatInvoiceDate,
  hasPermission,
  invoiceStatusLabel,
  type InvoiceDetail,
} from '@meterline/domain';
import type { ReactNode } from 'react';
import { ArrowLeft, FlaskConical } from 'lucide-react';
import { Link, useParams, useSearchParams } from '../../lib/router';
import { useOrganizationRole, useProfile } from '../../session/profile-context';
import { ErrorState } from '../../components/error-state';
import { NotFoundScreen } from '../../components/not-found-screen';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Notice } from '../../components/ui/notice';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { isApiError } from '../../data/api-client';
import { useInvoiceQuery } from '../../data/invoice-query';
import { useSubscriptionQuery } from '../../data/subscription-query';
import { usePaymentsConfigQuery } from '../../data/payments-config-query';
import { AppHeader } from '../../layout/app-header';
import { PaymentFormGate } from '../../payments/payment-form-gate';
import { PaymentsProvider } from '../../payments/payments-provider';
import { useEndPayNowRedirect } from '../../payments/use-pay-now';
import { PageTitle } from '../../lib/page-title';
import { InvoiceLines } from './invoice-lines';
import { billingPath, InvoicePaymentForm } from './invoice-payment-form';

export const PAY_INVOICES_DENIED = 'You need additional permissions to pay invoices';

/**
 * /pay/invoices/:invoiceId?org=slug: the hosted invoice page, the target of an invoice's payment
 * link. It shows what is due, takes a card in the payment port's fields (the simulator's, or
 * Stripe's), pays with the card's token at the provider and returns to the billing page once paid.
 */
export function PayInvoicePage() {
  const { invoiceId = '' } = useParams();
  const [params] = useSearchParams();
  const slug = params.get('org') ?? '';
  const profile = useProfile();
  const organization = profile.organizations.find((org) => org.slug === slug);
  const invoice = useInvoiceQuery(organization ? slug : undefined, invoiceId);
  // Pay Now's "Redirecting to payment gateway..." stays up until the invoice (or why not) shows.
  useEndPayNowRedirect(!organization || !invoice.isPending);

  // An organization the user is not in, or an invoice it does not have, is simply not found.
  if (!organization || !invoiceId || isApiError(invoice.error, 404)) {
    return (
      <>
        <AppHeader userMenu />
        <NotFoundScreen />
      </>
    );
  }

  return (
    <>
      <PageTitle parts={['Pay invoice', organization.name]} />
      <AppHeader userMenu />
      <main id="main" className="mx-auto w-full max-w-md flex-1 px-4 py-8 sm:py-12">
        <Link
          to={billingPath(slug)}
          className="mb-6 inline-flex items-center gap-1.5 rounded-md text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft aria-hidden className="size-4" />
          Back to billing
        </Link>
        {invoice.isPending ? (
          <InvoiceSkeleton />
        ) : invoice.isError ? (
          <ErrorState
            title="Failed to fetch the selected invoice"
            error={invoice.error}
            onRetry={() => void invoice.refetch()}
          />
        ) : (
          <HostedInvoice slug={slug} organizationName={organization.name} invoice={invoice.data} />
        )}
      </main>
    </>
  );
}

function HostedInvoice({
  slug,
  organizationName,
  invoice,
}: {
  slug: string;
  organizationName: string;
  invoice: InvoiceDetail;
}) {
  const role = useOrganizationRole(slug);
  return (
    <HostedInvoiceCard organizationName={organizationName} invoice={invoice}>
      {canPayNow(invoice) ? <CreditNotApplied slug={slug} /> : null}
      {canPayNow(invoice) ? (
        hasPermission(role, 'billing_write:subscriptions') ? (
          <PaymentsProvider>
            <PaymentFormGate>
              {(port) => (
                <port.CardScope>
                  <InvoicePaymentForm
                    slug={slug}
                    invoice={invoice}
                    port={port}
                    offerSavedCards={hasPermission(role, 'billing_read:payment_methods')}
                  />
                </port.CardScope>
              )}
            </PaymentFormGate>
          </PaymentsProvider>
        ) : (
          <Notice tone="lock" title={PAY_INVOICES_DENIED}>
            Contact your organization owner or administrator for assistance.
          </Notice>
        )
      ) : (
        <NothingToPay
          invoice={invoice}
          action={
            <Button size="sm" asChild>
              <Link to={billingPath(slug)}>Back to billing</Link>
            </Button>
          }
        />
      )}
    </HostedInvoiceCard>
  );
}

/**
 * Why the credit the organization holds does not lower what this invoice charges:
 * it was applied when the invoice was issued, and what is left applies to future invoices only (spec
 * §9). Said only when there is credit to wonder about.
 */
function CreditNotApplied({ slug }: { slug: string }) {
  const subscription = useSubscriptionQuery(slug);
  const balance = subscription.data?.customer_balance ?? 0;
  if (balance <= 0 || subscription.data?.billing_via_partner) return null;
  return (
    <Notice tone="info" title="This invoice is charged in full" className="mb-5">
      {`Your organization holds ${formatCents(balance)} of credit. Credits apply to future invoices only: an issued invoice is paid in full, and the credit stays for your next invoices.`}
    </Notice>
  );
}

/** The hosted page's invoice: who asks, what is due and for what; the payment part below. */
export function HostedInvoiceCard({
  organizationName,
  invoice,
  children,
}: {
  organizationName: string;
  invoice: InvoiceDetail;
  children: ReactNode;
}) {
  return (
    <Card className="overflow-hidden">
      <div className="space-y-4 border-b bg-muted/50 px-5 py-5 sm:px-6">
        <div className="flex items-center justify-between gap-3">
          <p className="truncate font-medium">{organizationName}</p>
          {canPayNow(invoice) ? <TestModeBadge /> : null}
        </div>
        <div>
          <h1 className="text-sm text-muted-foreground">
            Invoice <span className="font-medium text-foreground">{invoice.number}</span>
          </h1>
          <dl className="mt-3 space-y-1">
            <dt className="text-xs font-medium text-muted-foreground">Amount due</dt>
            <dd className="text-3xl font-semibold tracking-tight tabular-nums">
              {formatCents(invoice.amount_due)}
            </dd>
            <dd className="text-muted-foreground">
              For the billing period ending {formatInvoiceDate(invoice.period_end)}
            </dd>
          </dl>
        </div>
      </div>
      <div className="border-b px-5 py-4 sm:px-6">
        <InvoiceLines invoice={invoice} />
      </div>
      <div className="px-5 py-5 sm:px-6">{children}</div>
    </Card>
  );
}

/** A paid or void invoice: nothing to pay, said plainly. */
export function NothingToPay({ invoice, action }: { invoice: InvoiceDetail; action?: ReactNode }) {
  return (
    <Notice
      title={`This invoice is ${invoiceStatusLabel(invoice.status).toLowerCase()}`}
      actions={action}
    >
      There is nothing left to pay.
    </Notice>
  );
}

/** The provider's test mode: the simulator always, Stripe with test keys. */
function TestModeBadge() {
  const config = usePaymentsConfigQuery();
  const testMode =
    config.data?.payment_provider === 'simulator' ||
    config.data?.publishable_key?.startsWith('pk_test_');
  if (!testMode) return null;
  return (
    <Badge tone="warning">
      <FlaskConical aria-hidden className="size-3" />
      Test mode
    </Badge>
  );
}

export function InvoiceSkeleton() {
  return (
    <LoadingRegion label="Loading invoice">
      <Card className="space-y-4 p-6">
        <Skeleton className="h-4 w-32" />
        <Skeleton className="h-9 w-40" />
        <Skeleton className="h-4 w-56" />
        <Skeleton className="mt-6 h-9 w-full" />
        <Skeleton className="h-9 w-full" />
        <Skeleton className="h-9 w-full" />
      </Card>
    </LoadingRegion>
  );
}
