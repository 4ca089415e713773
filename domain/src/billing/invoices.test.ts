import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INVOICE_STATUSES,
  PAYMENT_FAILED_TOOLTIP,
  PAYMENT_PENDING_TOOLTIP,
  canPayNow,
  invoicePageCount,
  invoicePageText,
  invoicePageWindow,
  invoiceStatusLabel,
  outstandingInvoiceToPay,
  paymentTooltip,
  type InvoiceStatus,
} from './invoices.ts';

describe('invoice statuses', () => {
  it('labels statuses as the spec shows them', () => {
    expect(INVOICE_STATUSES.map((s) => [s, invoiceStatusLabel(s)])).toEqual([
      ['draft', 'Upcoming'],
      ['open', 'Outstanding'],
      ['paid', 'Paid'],
      ['void', 'Forgiven'],
      ['uncollectible', 'Outstanding'],
      ['issued', 'Outstanding'],
    ]);
  });

  it('offers Pay Now only for an amount due on an outstanding invoice', () => {
    for (const status of INVOICE_STATUSES) {
      expect(canPayNow({ status, amount_due: 100 })).toBe(
        ['open', 'uncollectible', 'issued'].includes(status),
      );
      expect(canPayNow({ status, amount_due: 0 })).toBe(false);
    }
  });

  it('explains a failed or a pending payment', () => {
    expect(paymentTooltip({ status: 'open', amount_due: 2500, payment_attempted: true })).toBe(
      PAYMENT_FAILED_TOOLTIP,
    );
    expect(paymentTooltip({ status: 'open', amount_due: 2500, payment_attempted: false })).toBe(
      PAYMENT_PENDING_TOOLTIP,
    );
    expect(PAYMENT_PENDING_TOOLTIP).toContain('"Pay Now"');
    expect(PAYMENT_FAILED_TOOLTIP).toMatch(/^We were not able to collect the payment\./);
    expect(
      paymentTooltip({ status: 'paid', amount_due: 2500, payment_attempted: true }),
    ).toBeNull();
  });
});

describe('outstandingInvoiceToPay', () => {
  const invoice = (id: string, status: InvoiceStatus, amount_due: number, period_end: number) => ({
    id,
    status,
    amount_due,
    period_end,
  });
  it('picks the oldest invoice with something left to pay', () => {
    const list = [
      invoice('draft', 'draft', 900, 400),
      invoice('newer', 'open', 500, 300),
      invoice('paid', 'paid', 0, 250),
      invoice('older', 'uncollectible', 700, 200),
      invoice('nothing', 'open', 0, 100),
      invoice('void', 'void', 800, 50),
    ];
    expect(outstandingInvoiceToPay(list)?.id).toBe('older');
    expect(outstandingInvoiceToPay(list.slice(0, 3))?.id).toBe('newer');
    expect(outstandingInvoiceToPay(list.slice(2, 3))).toBeUndefined();
  });
});

describe('invoicePageWindow', () => {
  it('windows 13 invoices into 3 pages of 5', () => {
    expect(invoicePageWindow(1, 5, 13)).toEqual({ offset: 0, from: 1, to: 5 });
    expect(invoicePageWindow(3, 5, 13)).toEqual({ offset: 10, from: 11, to: 13 });
    expect(invoicePageWindow(4, 5, 13)).toEqual({ offset: 15, from: 0, to: 0 });
    expect(invoicePageWindow(1, 5, 0)).toEqual({ offset: 0, from: 0, to: 0 });
    expect(invoicePageCount(5, 13)).toBe(3);
    expect(invoicePageCount(5, 0)).toBe(1);
    expect(invoicePageText(invoicePageWindow(2, 5, 13), 13)).toBe(
      'Showing 6 to 10 out of 13 invoices',
    );
    expect(() => invoicePageWindow(0, 5, 13)).toThrow(RangeError);
  });

  it('never skips or repeats an invoice across the pages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.nat({ max: 500 }), (pageSize, total) => {
        const seen: number[] = [];
        for (let page = 1; page <= invoicePageCount(pageSize, total); page += 1) {
          const { offset, from, to } = invoicePageWindow(page, pageSize, total);
          expect(offset).toBe((page - 1) * pageSize);
          for (let n = from; from > 0 && n <= to; n += 1) seen.push(n);
        }
        expect(seen).toEqual(Array.from({ length: total }, (_, i) => i + 1));
      }),
    );
  });
});
