import { useState } from 'react';
import type { Invoice } from '@meterline/domain';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import { invoiceQueryOptions } from '../../../data/invoice-query';

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
