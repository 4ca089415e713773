import { useState } from 'react';
import type { Invoice } from '@meterline/domain';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { invoiceQueryOptions } from '../../../data/invoice-query';
import { useInvoicePaymentLinkMutation } from '../../../data/invoice-payment-link-mutation';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'Something went wrong.';
}

/**
 * Download: the tab opens synchronously on the click (a popup blocker lets that through), then
 * goes to the PDF once the invoice is fetched; if the fetch fails, the empty tab closes again.
 */
export function useDownloadInvoice(orgSlug: string) {
  const queryClient = useQueryClient();
  const [downloading, setDownloading] = useState<string | null>(null);

  const download = async (invoice: Pick<Invoice, 'id'>) => {
    const tab = window.open('', '_blank');
    setDownloading(invoice.id);
    try {
      const detail = await queryClient.fetchQuery(invoiceQueryOptions(orgSlug, invoice.id));
      if (tab) {
        tab.opener = null;
        tab.location.href = detail.invoice_pdf;
      } else {
        window.open(detail.invoice_pdf, '_blank', 'noopener,noreferrer');
      }
    } catch (error) {
      tab?.close();
      toast.error(`Failed to fetch the selected invoice: ${messageOf(error)}`);
    } finally {
      setDownloading(null);
    }
  };

  return { download, downloading };
}

export const REDIRECTING_MESSAGE = 'Redirecting to payment gateway...';

/**
 * Pay Now: ask for the invoice's payment link and leave for it. On failure the server's message
 * replaces the progress toast, and the list and count are fetched again (the mutation does that).
 */
export function usePayInvoice(orgSlug: string) {
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
