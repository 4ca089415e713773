import {
  canPayNow,
  cardBrandName,
  CREDITED_TO_BALANCE_LABEL,
  countryName,
  formatCents,
  formatInvoiceDate,
  formatPeriod,
  invoiceStatusLabel,
  isReverseCharge,
  lineQuantities,
  projectShare,
  shownBillable,
  type InvoiceDetail,
} from '@meterline/domain';
import PDFDocument from 'pdfkit';
import { OVERDUE_AFTER_DAYS } from '../restrictions/restrictions.ts';
import { printText, textHeight, useFont } from './pdf-fonts.ts';

const MARGIN = 50;
const MUTED = '#6b7280';
const INK = '#111827';
const RULE = '#e5e7eb';
const LINK = '#1d4ed8';
const FOOTER_SPACE = 40;

/** Who issues the invoice: the configured seller (SELLER_NAME, SELLER_ADDRESS, SELLER_TAX_ID). */
export interface Seller {
  readonly name: string;
  readonly addressLines: readonly string[];
  readonly taxId: string;
}

/** A line of the finalized invoice as a row: its quantity, with usage and quota under it, at its price. */
function lineRow(line: InvoiceDetail['lines'][number]) {
  // A line finalized before its quantities were kept shows its price description alone.
  const quantities =
    line.quantity === null ? null : lineQuantities({ ...line, quantity: line.quantity });
  const detail = quantities
    ? [
        quantities.used === null ? null : `${quantities.used} used`,
        quantities.included === null ? null : `${quantities.included} included`,
      ]
        .filter(Boolean)
        .join(', ')
    : '';
  // A fee at a price (the plan's month, the part of a month given back): its count, as stated.
  let count = '';
  if (!quantities && line.quantity !== null && line.unit_price !== null) {
    const { value, decimals } = shownBillable({ ...line, quantity: line.quantity });
    count = value.toLocaleString('en-US', { maximumFractionDigits: decimals });
  }
  return {
    quantity: quantities?.billed ?? count,
    detail,
    unitPrice: quantities?.unitPrice ?? line.unit_price_desc,
  };
}

/** What the caller may do from the document: the signed payment link, for one who may pay. */
export interface PdfOptions {
  /** The absolute signed link to pay the invoice, or null for a caller who may not pay it. */
  readonly payUrl: string | null;
}

const DAY_SECONDS = 86_400;

/** When an invoice falls due: finalization and the days after which an unpaid one is overdue. */
export function invoiceDueAt(finalizedAt: number): number {
  return finalizedAt + OVERDUE_AFTER_DAYS * DAY_SECONDS;
}

/**
 * "Pay online:" and the signed link under it, clickable and printed whole so that a paper copy can be typed:
 * on one line when it fits, else cut before its query (a link wraps at a hyphen, which reads as part of it).
 */
function payLink(doc: PDFKit.PDFDocument, url: string, width: number) {
  useFont(doc, 'regular').fontSize(9).fillColor(INK).moveDown(0.3);
  doc.text('Pay online:', MARGIN, doc.y, { width });
  doc.fontSize(8).fillColor(LINK);
  const query = url.indexOf('?');
  const lines =
    doc.widthOfString(url) <= width || query < 0 ? [url] : [url.slice(0, query), url.slice(query)];
  for (const line of lines) doc.text(line, MARGIN, doc.y, { width, link: url });
}

/**
 * The invoice as a PDF, rendered from the stored invoice only: what was finalized is what is printed, down
 * to the billing name, address and tax ID of that day. Laid out as invoices are: the seller and the
 * customer, the invoice's number and dates, one row per line (quantity billed, usage and quota under it,
 * unit price, amount; each project's share under the line), then subtotal, credit, total, payment and
 * what is left to pay; an invoice with something left to pay says when it falls due and, for a caller who
 * may pay, the signed link that pays it. Names, addresses and descriptions print in any script (pdf-fonts.ts).
 */
export function renderInvoicePdf(
  invoice: InvoiceDetail,
  organizationName: string,
  seller: Seller,
  options: PdfOptions = { payUrl: null },
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    // No standard font (which prints Latin-1 alone): every text picks an embedded one.
    font: '',
    // Dated the day it was finalized, so the same invoice is the same file byte for byte, whenever fetched
    // (pdfkit derives the file's ID from these facts too).
    info: {
      Title: `Invoice ${invoice.number}`,
      Author: seller.name,
      Subject: organizationName,
      CreationDate: new Date(invoice.finalized_at * 1000),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - MARGIN * 2;
  const right = MARGIN + width;
  const rule = (y: number, color = RULE) =>
    doc.moveTo(MARGIN, y).lineTo(right, y).lineWidth(0.75).strokeColor(color).stroke();

  // Header: the title and the invoice's facts on the left, the seller's name on the right.
  useFont(doc, 'bold').fillColor(INK).fontSize(22).text('Invoice', MARGIN, MARGIN);
  doc.fontSize(14);
  printText(
    doc,
    seller.name,
    MARGIN + 120,
    MARGIN + 4,
    { width: width - 120, align: 'right' },
    'bold',
  );
  const facts: [string, string][] = [
    ['Invoice number', invoice.number],
    ['Date of issue', formatInvoiceDate(invoice.finalized_at)],
    ['Billing period', formatPeriod(invoice.period_start, invoice.period_end)],
    ['Status', invoiceStatusLabel(invoice.status)],
  ];
  const remaining = Math.max(0, invoice.amount_due - invoice.amount_paid);
  const dueAt = remaining > 0 && canPayNow(invoice) ? invoiceDueAt(invoice.finalized_at) : null;
  if (dueAt !== null) facts.push(['Date due', formatInvoiceDate(dueAt)]);
  if (invoice.paid_at !== null) facts.push(['Date paid', formatInvoiceDate(invoice.paid_at)]);
  let y = Math.max(MARGIN + 42, doc.y + 8);
  for (const [label, value] of facts) {
    useFont(doc, 'regular').fontSize(9).fillColor(MUTED).text(label, MARGIN, y, { width: 100 });
    doc.fillColor(INK).text(value, MARGIN + 100, y, { width: 220 });
    y += 14;
  }

  // The seller and the customer, side by side.
  const blockTop = y + 22;
  const half = width / 2;
  const block = (x: number, title: string, lines: string[]) => {
    useFont(doc, 'bold')
      .fontSize(9)
      .fillColor(INK)
      .text(title, x, blockTop, { width: half - 20 });
    doc.moveDown(0.3);
    // The first line (the name) in bold; each line in the fonts its scripts need, wrapped in the column.
    lines.forEach((text, index) => {
      printText(doc, text, x, doc.y, { width: half - 20 }, index === 0 ? 'bold' : 'regular');
    });
    return doc.y;
  };
  const sellerBottom = block(MARGIN, 'From', [
    seller.name,
    ...seller.addressLines,
    `VAT ID: ${seller.taxId}`,
  ]);
  const address = invoice.billing_address;
  const billTo = [invoice.billing_name ?? organizationName];
  if (address) {
    billTo.push(address.line1);
    if (address.line2) billTo.push(address.line2);
    billTo.push([address.postal_code, address.city, address.state].filter(Boolean).join(' '));
    billTo.push(countryName(address.country) ?? address.country);
  }
  if (invoice.tax_id) billTo.push(`Tax ID: ${invoice.tax_id.value}`);
  if (invoice.billing_email) billTo.push(invoice.billing_email);
  const billToBottom = block(MARGIN + half, 'Bill to', billTo);

  // What this invoice comes to, in one sentence.
  y = Math.max(sellerBottom, billToBottom) + 24;
  const headline =
    invoice.status === 'void'
      ? `${formatCents(invoice.amount_due)} · void, nothing to pay`
      : remaining === 0
        ? `${formatCents(invoice.amount_due)} paid${invoice.paid_at === null ? '' : ` on ${formatInvoiceDate(invoice.paid_at)}`}`
        : `${formatCents(remaining)} due${dueAt === null ? '' : ` ${formatInvoiceDate(dueAt)}`}`;
  useFont(doc, 'bold').fontSize(15).fillColor(INK).text(headline, MARGIN, y, { width });
  if (dueAt !== null && options.payUrl !== null) payLink(doc, options.payUrl, width);
  if (isReverseCharge(seller.taxId, invoice.tax_id)) {
    // Under the amount, where whoever books the invoice looks first.
    useFont(doc, 'bold')
      .fillColor(INK)
      .fontSize(9)
      .text('Reverse charge', MARGIN, doc.y + 6, { width, continued: true });
    useFont(doc, 'regular')
      .fillColor(MUTED)
      .text(
        ': VAT to be accounted for by the customer (Article 196 of Council Directive 2006/112/EC).',
      );
  }
  y = doc.y + 18;

  // The line table.
  const columns = {
    description: { x: MARGIN, width: 165 },
    quantity: { x: MARGIN + 170, width: 160 },
    unitPrice: { x: MARGIN + 335, width: 90 },
    amount: { x: right - 65, width: 65 },
  };
  const header = () => {
    useFont(doc, 'bold').fontSize(8).fillColor(MUTED);
    doc.text('DESCRIPTION', columns.description.x, y, { width: columns.description.width });
    doc.text('QUANTITY', columns.quantity.x, y, { width: columns.quantity.width });
    doc.text('UNIT PRICE', columns.unitPrice.x, y, { width: columns.unitPrice.width });
    doc.text('AMOUNT', columns.amount.x, y, { width: columns.amount.width, align: 'right' });
    y += 14;
    rule(y);
    y += 8;
  };
  const room = (height: number, table = true) => {
    if (y + height <= doc.page.height - MARGIN - FOOTER_SPACE) return;
    doc.addPage();
    y = MARGIN;
    if (table) header();
  };
  header();

  const projectRows = (line: InvoiceDetail['lines'][number]) => {
    const textWidth = columns.unitPrice.x + columns.unitPrice.width - MARGIN - 12;
    for (const entry of line.breakdown) {
      const { usage, share } = projectShare(line, entry);
      const text = [entry.project_name, usage, share].filter(Boolean).join(' · ');
      // A project's name is the customer's own text: it may be in any script.
      doc.fontSize(8);
      const height = textHeight(doc, text, textWidth);
      room(height + 3);
      doc.fontSize(8).fillColor(MUTED);
      printText(doc, text, MARGIN + 12, y, { width: textWidth });
      doc.text(formatCents(entry.amount), columns.amount.x, y, {
        width: columns.amount.width,
        align: 'right',
      });
      y += height + 3;
    }
  };

  for (const line of invoice.lines) {
    const row = lineRow(line);
    useFont(doc, 'regular').fontSize(9);
    const heights = [
      textHeight(doc, line.description, columns.description.width),
      doc.heightOfString(row.unitPrice, { width: columns.unitPrice.width }),
      doc.heightOfString(row.quantity || ' ', { width: columns.quantity.width }) +
        (row.detail
          ? doc.fontSize(8).heightOfString(row.detail, { width: columns.quantity.width }) + 2
          : 0),
    ];
    const height = Math.max(...heights);
    room(height + 10);
    doc.fontSize(9).fillColor(INK);
    printText(doc, line.description, columns.description.x, y, {
      width: columns.description.width,
    });
    doc.text(row.quantity, columns.quantity.x, y, { width: columns.quantity.width });
    if (row.detail) {
      doc
        .fontSize(8)
        .fillColor(MUTED)
        .text(row.detail, columns.quantity.x, doc.y + 2, { width: columns.quantity.width });
    }
    doc.fontSize(9).fillColor(INK);
    doc.text(row.unitPrice, columns.unitPrice.x, y, { width: columns.unitPrice.width });
    doc.text(formatCents(line.amount), columns.amount.x, y, {
      width: columns.amount.width,
      align: 'right',
    });
    y += height + 5;
    projectRows(line);
    y += 5;
    rule(y - 2);
    y += 6;
  }

  // The totals, under the amounts.
  const total = (label: string, cents: number, bold = false) => {
    room(18, false);
    useFont(doc, bold ? 'bold' : 'regular')
      .fontSize(9)
      .fillColor(INK);
    doc.text(label, columns.quantity.x + 40, y, {
      width: columns.amount.x - columns.quantity.x - 50,
      align: 'right',
    });
    doc.text(formatCents(cents), columns.amount.x, y, {
      width: columns.amount.width,
      align: 'right',
    });
    y += 16;
  };
  y += 4;
  // The totals stay together: a page that ends in the middle of them reads as a different sum.
  const totalRows =
    3 +
    Number(invoice.credited_to_balance > 0) +
    Number(invoice.amount_paid > 0) +
    Number(invoice.status !== 'void');
  room(totalRows * 16 + 2, false);
  total('Subtotal', invoice.subtotal);
  total('Credit applied', -invoice.credit_applied);
  total('Total', invoice.amount_due, true);
  // A change invoice below zero is $0.00 due: the rest was not lost but kept as credit.
  if (invoice.credited_to_balance > 0) {
    total(CREDITED_TO_BALANCE_LABEL, invoice.credited_to_balance);
  }
  if (invoice.amount_paid > 0) {
    const card = invoice.paid_with
      ? ` (${cardBrandName(invoice.paid_with.brand)} ending ${invoice.paid_with.last4})`
      : '';
    total(`Amount paid${card}`, -invoice.amount_paid);
  }
  if (invoice.status !== 'void') total('Amount due', remaining, true);

  // Every page: the seller and the currency at the foot (below the bottom margin, which would break).
  const range = doc.bufferedPageRange();
  for (let index = range.start; index < range.start + range.count; index++) {
    doc.switchToPage(index);
    doc.page.margins.bottom = 0;
    useFont(doc, 'regular').fontSize(8).fillColor(MUTED);
    // Line by line: pdfkit starts a line after a break where the one before it ended when centering.
    const footer = [
      `${seller.name} · ${seller.addressLines.join(', ')} · VAT ID ${seller.taxId}`,
      'Amounts in US dollars. Credits apply to future invoices and are not refundable. ' +
        `Page ${index - range.start + 1} of ${range.count}`,
    ];
    let footerY = doc.page.height - MARGIN - 22;
    for (const text of footer) {
      printText(doc, text, MARGIN, footerY, { width, align: 'center' });
      footerY = doc.y;
    }
  }
  doc.end();
  return done;
}
