import type { Cents } from '../money/cents.ts';

export const INVOICE_STATUSES = [
  'draft',
  'open',
  'paid',
  'void',
  'uncollectible',
  'issued',
] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_STATUS_LABELS: Readonly<Record<InvoiceStatus, string>> = {
  draft: 'Upcoming',
  paid: 'Paid',
  void: 'Forgiven',
  uncollectible: 'Outstanding',
  open: 'Outstanding',
  issued: 'Outstanding',
};

export function invoiceStatusLabel(status: InvoiceStatus): string {
  return INVOICE_STATUS_LABELS[status];
}

const PAYABLE: readonly InvoiceStatus[] = ['uncollectible', 'open', 'issued'];

interface PayableInvoice {
  readonly status: InvoiceStatus;
  readonly amount_due: Cents;
}

/** "Pay Now" shows only for an amount due on an outstanding invoice. */
export function canPayNow(invoice: PayableInvoice): boolean {
  return invoice.amount_due > 0 && PAYABLE.includes(invoice.status);
}

/**
 * The invoice an overdue restriction asks to pay: the oldest one with something left to pay (the
 * list comes newest first, as the API answers it). Undefined when none is payable.
 */
export function outstandingInvoiceToPay<T extends PayableInvoice & { readonly period_end: number }>(
  invoices: readonly T[],
): T | undefined {
  return invoices
    .filter(canPayNow)
    .reduce<T | undefined>(
      (oldest, invoice) => (oldest && oldest.period_end <= invoice.period_end ? oldest : invoice),
      undefined,
    );
}

export const PAYMENT_FAILED_TOOLTIP =
  'We were not able to collect the payment. Make sure you have a valid payment method and enough funds. Outstanding invoices may cause restrictions on your organization and projects.';
export const PAYMENT_PENDING_TOOLTIP =
  'This invoice will soon be charged to your default payment method. To pay it right away, use "Pay Now".';

/** The tooltip beside an outstanding invoice; null when there is nothing to pay. */
export function paymentTooltip(
  invoice: PayableInvoice & { readonly payment_attempted: boolean },
): string | null {
  if (!canPayNow(invoice)) return null;
  return invoice.payment_attempted ? PAYMENT_FAILED_TOOLTIP : PAYMENT_PENDING_TOOLTIP;
}

export const INVOICE_PAGE_SIZE = 5;

export interface PageWindow {
  /** The `offset` query parameter of the page. */
  readonly offset: number;
  /** 1-based position of the first invoice shown; 0 when there is none. */
  readonly from: number;
  /** 1-based position of the last invoice shown; 0 when there is none. */
  readonly to: number;
}

/** The window of a 1-based page; a page past the end is empty (from and to 0). */
export function invoicePageWindow(page: number, pageSize: number, total: number): PageWindow {
  if (!Number.isInteger(page) || page < 1)
    throw new RangeError(`Page must be a positive integer: ${page}`);
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`Page size must be a positive integer: ${pageSize}`);
  const offset = (page - 1) * pageSize;
  const count = Math.max(0, Math.min(pageSize, total - offset));
  return count === 0
    ? { offset, from: 0, to: 0 }
    : { offset, from: offset + 1, to: offset + count };
}

export function invoicePageCount(pageSize: number, total: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / pageSize));
}

/** "Showing 6 to 10 out of 13 invoices". */
export function invoicePageText(window: PageWindow, total: number): string {
  return `Showing ${window.from} to ${window.to} out of ${total} invoices`;
}
