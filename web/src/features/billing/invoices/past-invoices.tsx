import { useRef, useState } from 'react';
import {
  hasPermission,
  INVOICE_PAGE_SIZE,
  invoicePageCount,
  invoicePageText,
  invoicePageWindow,
  type Organization,
  type Role,
} from '@meterline/domain';
import { ChevronLeft, ChevronRight, Download, FileText } from 'lucide-react';
import { ErrorState } from '../../../components/error-state';
import { Button } from '../../../components/ui/button';
import { LoadingRegion, Skeleton } from '../../../components/ui/skeleton';
import { useInvoicesCountQuery } from '../../../data/invoices-count-query';
import { useInvoicesQuery } from '../../../data/invoices-query';
import { invoicesExportPath } from '../../../data/export-paths';
import { cn } from '../../../lib/cn';
import { InvoiceRow } from './invoice-row';
import { usePayNow } from '../../../payments/use-pay-now';
import { useDownloadInvoice } from './use-invoice-actions';

export const SKELETON_ROWS = 6;
export const NO_INVOICES = 'No invoices for this organization yet';

function InvoicesSkeleton() {
  return (
    <LoadingRegion label="Loading invoices" className="divide-y border-y">
      {Array.from({ length: SKELETON_ROWS }, (_, index) => (
        <div
          key={index}
          data-testid="invoice-skeleton-row"
          className="flex items-center gap-6 py-3.5"
        >
          <Skeleton className="h-4 w-24" />
          <Skeleton className="h-4 w-32 max-sm:hidden" />
          <Skeleton className="ml-auto h-4 w-16" />
          <Skeleton round className="h-5 w-20" />
        </div>
      ))}
    </LoadingRegion>
  );
}

function EmptyInvoices() {
  return (
    <div className="flex flex-col items-center rounded-md border border-dashed px-6 py-10 text-center">
      <FileText aria-hidden className="mb-3 size-5 text-muted-foreground" />
      <p className="font-medium">{NO_INVOICES}</p>
      <p className="mt-1 text-muted-foreground">
        An invoice appears here at the end of each billing cycle.
      </p>
    </div>
  );
}

const HEAD = 'pb-2 text-left text-xs font-medium text-muted-foreground';

/**
 * Past invoices, five to a page. The page lives in this component, which the section keys by
 * organization: switching organizations starts again at page 1.
 */
export function PastInvoices({
  organization,
  role,
}: {
  organization: Organization;
  role: Role | null;
}) {
  const slug = organization.slug;
  const [page, setPage] = useState(1);
  const count = useInvoicesCountQuery(slug);
  const total = count.data;
  const pageCount = total === undefined ? null : invoicePageCount(INVOICE_PAGE_SIZE, total);
  // The count can shrink under us (a refetch after a failed payment): never sit past the end.
  const current = pageCount === null ? page : Math.min(page, pageCount);
  const offset = (current - 1) * INVOICE_PAGE_SIZE;
  const invoices = useInvoicesQuery(slug, { offset });
  const { download, downloading } = useDownloadInvoice(slug);
  const { pay, paying } = usePayNow(slug);
  const previousButton = useRef<HTMLButtonElement>(null);
  const nextButton = useRef<HTMLButtonElement>(null);
  const canPay = hasPermission(role, 'billing_write:subscriptions');

  if (invoices.isPending) return <InvoicesSkeleton />;
  // A failed background refetch keeps the invoices already shown.
  if (invoices.data === undefined) {
    return (
      <ErrorState
        title="Failed to retrieve invoices"
        error={invoices.error}
        onRetry={() => void invoices.refetch()}
      />
    );
  }
  if (total === 0 || (current === 1 && invoices.data.length === 0 && !invoices.isPlaceholderData)) {
    return <EmptyInvoices />;
  }

  const hasNext =
    pageCount === null ? invoices.data.length === INVOICE_PAGE_SIZE : current < pageCount;
  return (
    <div className="space-y-4">
      <table
        className={cn(
          'w-full text-sm max-sm:block sm:table-fixed',
          invoices.isPlaceholderData && 'opacity-60',
        )}
      >
        <caption className="sr-only">Past invoices, newest first</caption>
        {/* Fixed widths, the actions' wide enough for Pay Now: the columns stay where they are from
            page to page and whether or not a row offers Pay Now; the number takes what is left. */}
        <colgroup className="max-sm:hidden">
          <col className="w-32" />
          <col />
          <col className="w-28" />
          <col className="w-40" />
          <col className="w-44" />
        </colgroup>
        <thead className="max-sm:sr-only">
          <tr>
            <th scope="col" className={cn(HEAD, 'pr-3')}>
              Date
            </th>
            <th scope="col" className={cn(HEAD, 'px-3')}>
              Invoice number
            </th>
            <th scope="col" className={cn(HEAD, 'px-3 text-right')}>
              Amount
            </th>
            <th scope="col" className={cn(HEAD, 'px-3')}>
              Status
            </th>
            <th scope="col" className={cn(HEAD, 'pl-3 text-right')}>
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="border-b max-sm:block">
          {invoices.data.map((invoice) => (
            <InvoiceRow
              key={invoice.id}
              invoice={invoice}
              canPay={canPay}
              onDownload={() => void download(invoice)}
              downloading={downloading === invoice.id}
              onPay={() => pay(invoice)}
              paying={paying === invoice.id}
            />
          ))}
        </tbody>
      </table>
      <div className="flex flex-wrap items-center justify-between gap-3">
        {total === undefined && count.isError ? (
          <p role="alert" className="text-destructive">
            Failed to retrieve total number of invoices
          </p>
        ) : total === undefined ? (
          <Skeleton className="h-4 w-56" />
        ) : (
          <p aria-live="polite" className="text-muted-foreground tabular-nums">
            {invoicePageText(invoicePageWindow(current, INVOICE_PAGE_SIZE, total), total)}
          </p>
        )}
        <div className="flex gap-2">
          <Button size="sm" asChild>
            <a href={invoicesExportPath(organization.slug)} download>
              <Download aria-hidden />
              Export CSV
            </a>
          </Button>
          <Button
            ref={previousButton}
            size="icon"
            aria-label="Previous page"
            disabled={current <= 1}
            onClick={() => {
              setPage(current - 1);
              // Disabled under the keyboard's focus, the button would drop it to the page.
              if (current - 1 <= 1) nextButton.current?.focus();
            }}
          >
            <ChevronLeft aria-hidden />
          </Button>
          <Button
            ref={nextButton}
            size="icon"
            aria-label="Next page"
            disabled={!hasNext}
            // While the next page loads the button keeps the focus, and waits.
            aria-disabled={invoices.isPlaceholderData || undefined}
            onClick={() => {
              if (invoices.isPlaceholderData) return;
              setPage(current + 1);
              if (pageCount !== null && current + 1 >= pageCount) previousButton.current?.focus();
            }}
          >
            <ChevronRight aria-hidden />
          </Button>
        </div>
      </div>
    </div>
  );
}
