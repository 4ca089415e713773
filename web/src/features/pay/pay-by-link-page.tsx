import { canPayNow, formatCents } from '@meterline/domain';
import { useState } from 'react';
import { useParams, useSearchParams } from '../../lib/router';
import { ErrorState } from '../../components/error-state';
import { NotFoundScreen } from '../../components/not-found-screen';
import { Notice } from '../../components/ui/notice';
import { isApiError } from '../../data/api-client';
import { usePayLinkInvoiceQuery } from '../../data/pay-link-invoice-query';
import { usePayInvoiceByLinkMutation } from '../../data/pay-link-payment-mutation';
import { AppHeader } from '../../layout/app-header';
import { PageTitle } from '../../lib/page-title';
import { PaymentFormGate } from '../../payments/payment-form-gate';
import { PaymentsProvider } from '../../payments/payments-provider';
import { NewCardPaymentForm } from './invoice-payment-form';
import { HostedInvoiceCard, InvoiceSkeleton, NothingToPay } from './pay-invoice-page';

/**
 * /pay/invoices/:invoiceId?org=…&key=…, for whoever holds the invoice's signed payment link (the Pay
 * Now link of the billing emails) without being a member who may pay: the invoice, and the new-card
 * form alone. No saved card is offered, and the server would refuse one.
 */
export function PayByLinkPage() {
  const { invoiceId = '' } = useParams();
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  const invoice = usePayLinkInvoiceQuery(invoiceId, key);
  const pay = usePayInvoiceByLinkMutation(invoiceId, key);
  // The amount just paid, kept for the confirmation once the invoice reloads as paid.
  const [paid, setPaid] = useState<string | null>(null);

  if (isApiError(invoice.error, 404) || isApiError(invoice.error, 400)) {
    return (
      <>
        <AppHeader />
        <NotFoundScreen />
      </>
    );
  }

  return (
    <>
      <PageTitle
        parts={['Pay invoice', ...(invoice.data ? [invoice.data.organization_name] : [])]}
      />
      <AppHeader />
      <main id="main" className="mx-auto w-full max-w-md flex-1 px-4 py-8 sm:py-12">
        {invoice.isPending ? (
          <InvoiceSkeleton />
        ) : invoice.isError ? (
          <ErrorState
            title="Failed to fetch the selected invoice"
            error={invoice.error}
            onRetry={() => void invoice.refetch()}
          />
        ) : (
          <HostedInvoiceCard
            organizationName={invoice.data.organization_name}
            invoice={invoice.data.invoice}
          >
            {paid ? (
              <Notice
                tone="success"
                role="status"
                title={`Invoice ${invoice.data.invoice.number} is paid`}
              >
                {paid} was charged to your card. Thank you.
              </Notice>
            ) : canPayNow(invoice.data.invoice) ? (
              <PaymentsProvider>
                <PaymentFormGate>
                  {(port) => (
                    <port.CardScope>
                      <NewCardPaymentForm
                        invoice={invoice.data.invoice}
                        port={port}
                        pay={pay}
                        onPaid={() => setPaid(formatCents(invoice.data.invoice.amount_due))}
                        backTo={null}
                      />
                    </port.CardScope>
                  )}
                </PaymentFormGate>
              </PaymentsProvider>
            ) : (
              <NothingToPay invoice={invoice.data.invoice} />
            )}
          </HostedInvoiceCard>
        )}
      </main>
    </>
  );
}
