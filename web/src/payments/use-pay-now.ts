import type { Invoice } from '@meterline/domain';
import { toast } from '../lib/toast';
import { useInvoicePaymentLinkMutation } from '../data/invoice-payment-link-mutation';

export const REDIRECTING_MESSAGE = 'Redirecting to payment gateway...';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong.';
}

/**
 * Pay Now (spec §4): ask for the invoice's payment link and leave for it. On failure the server's
 * message replaces the progress toast, and the list and count are fetched again (the mutation does
 * that). The invoices' Pay Now and the restriction banner's "Pay outstanding invoice" both use it.
 */
export function usePayNow(orgSlug: string) {
  const payment = useInvoicePaymentLinkMutation(orgSlug);
  const pay = (invoice: Pick<Invoice, 'id'>) => {
    const toastId = toast.loading(REDIRECTING_MESSAGE);
    payment.mutate(invoice.id, {
      onSuccess: ({ redirectUrl }) => window.location.assign(redirectUrl),
      onError: (error) => {
        toast.error(messageOf(error), { id: toastId });
      },
    });
  };
  const paying = payment.isPending || payment.isSuccess ? (payment.variables ?? null) : null;
  return { pay, paying };
}
