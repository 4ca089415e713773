import { useId } from 'react';
import {
  canPayNow,
  formatCents,
  formatInvoiceDate,
  invoiceStatusLabel,
  paymentTooltip,
  type Invoice,
  type InvoiceStatus,
} from '@meterline/domain';
import { CreditCard, Download, Info, LoaderCircle } from 'lucide-react';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Tooltip } from '../../../components/ui/tooltip';

const STATUS_TONES: Record<InvoiceStatus, BadgeTone> = {
  draft: 'primary',
  paid: 'success',
  void: 'neutral',
  open: 'warning',
  issued: 'warning',
  uncollectible: 'destructive',
};

function PaymentHint({ text }: { text: string }) {
  const id = useId();
  return (
    <>
      <Tooltip content={text}>
        <button
          type="button"
          aria-label="About this payment"
          aria-describedby={id}
          className="inline-flex size-6 items-center justify-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground"
        >
          <Info aria-hidden className="size-4" />
        </button>
      </Tooltip>
      <span id={id} hidden>
        {text}
      </span>
    </>
  );
}

/**
 * A table row on wide screens; on narrow ones the row becomes a small grid (date and number on
 * the left, amount and actions on the right, the status below) so that nothing is squeezed.
 */
export const ROW_LAYOUT =
  'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:py-3';
const CELL = 'sm:py-3 max-sm:block';

export function InvoiceRow({
  invoice,
  canPay,
  onDownload,
  downloading,
  onPay,
  paying,
}: {
  invoice: Invoice;
  canPay: boolean;
  onDownload: () => void;
  downloading: boolean;
  onPay: () => void;
  paying: boolean;
}) {
  const tooltip = paymentTooltip(invoice);
  return (
    <tr className={`border-t ${ROW_LAYOUT}`}>
      <td className={`${CELL} whitespace-nowrap max-sm:col-start-1 max-sm:row-start-1 sm:pr-3`}>
        {formatInvoiceDate(invoice.period_end)}
      </td>
      <td
        className={`${CELL} truncate font-mono text-xs text-muted-foreground max-sm:col-start-1 max-sm:row-start-2 sm:px-3 sm:text-[13px]`}
      >
        {invoice.number}
      </td>
      <td
        className={`${CELL} text-right whitespace-nowrap tabular-nums max-sm:col-start-2 max-sm:row-start-1 sm:px-3`}
      >
        {formatCents(invoice.amount_due)}
      </td>
      <td className={`${CELL} max-sm:col-start-1 max-sm:row-start-3 sm:px-3`}>
        <span className="inline-flex items-center gap-1">
          <Badge tone={STATUS_TONES[invoice.status]}>{invoiceStatusLabel(invoice.status)}</Badge>
          {tooltip ? <PaymentHint text={tooltip} /> : null}
        </span>
      </td>
      <td
        className={`${CELL} max-sm:col-start-2 max-sm:row-span-2 max-sm:row-start-2 max-sm:self-end sm:pl-3`}
      >
        <div className="flex items-center justify-end gap-2">
          {canPay && canPayNow(invoice) ? (
            <Button size="sm" variant="primary" onClick={onPay} disabled={paying}>
              {paying ? (
                <LoaderCircle aria-hidden className="animate-spin" />
              ) : (
                <CreditCard aria-hidden />
              )}
              Pay Now
            </Button>
          ) : null}
          <Tooltip content="Download invoice">
            <Button
              size="icon"
              aria-label="Download invoice"
              onClick={onDownload}
              disabled={downloading}
            >
              {downloading ? (
                <LoaderCircle aria-hidden className="animate-spin" />
              ) : (
                <Download aria-hidden />
              )}
            </Button>
          </Tooltip>
        </div>
      </td>
    </tr>
  );
}
