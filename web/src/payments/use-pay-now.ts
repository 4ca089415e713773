import { useEffect } from 'react';
import type { Invoice } from '@meterline/domain';
import { toast } from '../lib/toast';
import { useNavigate } from '../lib/router';
import { useInvoicePaymentLinkMutation } from '../data/invoice-payment-link-mutation';

export const REDIRECTING_MESSAGE = 'Redirecting to payment gateway...';
/** The progress toast's id: the payment page takes it down once it shows the invoice. */
export const PAY_NOW_TOAST_ID = 'pay-now-redirect';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong.';
}

/** A path of this app ("/pay/invoices/…"), not another site's address. */
function isAppPath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/**
 * Pay Now (spec §4): ask for the invoice's payment link and leave for it, "Redirecting to payment
 * gateway..." showing meanwhile. The app's own payment page is reached without reloading the app, so
 * the message stays up and the page never goes blank while it loads; the page takes the message down
 * (`useEndPayNowRedirect`). On failure the server's message replaces it, and the list and count are
 * fetched again (the mutation does that). The invoices' Pay Now and the restriction banner's "Pay
 * outstanding invoice" both use it.
 */
export function usePayNow(orgSlug: string) {
  const payment = useInvoicePaymentLinkMutation(orgSlug);
  const navigate = useNavigate();
  const pay = (invoice: Pick<Invoice, 'id'>) => {
    const toastId = toast.loading(REDIRECTING_MESSAGE, { id: PAY_NOW_TOAST_ID });
    payment.mutate(invoice.id, {
      onSuccess: ({ redirectUrl }) => {
        if (isAppPath(redirectUrl)) navigate(redirectUrl);
        else window.location.assign(redirectUrl);
      },
      onError: (error) => {
        toast.error(messageOf(error), { id: toastId });
      },
    });
  };
  const paying = payment.isPending || payment.isSuccess ? (payment.variables ?? null) : null;
  return { pay, paying };
}

/** The payment page, once it shows the invoice (or why it cannot): the redirect is over. */
export function useEndPayNowRedirect(done: boolean) {
  useEffect(() => {
    if (done) toast.dismiss(PAY_NOW_TOAST_ID);
  }, [done]);
}
