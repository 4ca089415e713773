import {
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

const MARGIN = 50;
const MUTED = '#6b7280';
const INK = '#111827';
const RULE = '#e5e7eb';
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

/**
 * The invoice as a PDF, rendered from the stored invoice only: what was finalized is what is printed, down
 * to the billing name, address and tax ID of that day. Laid out as invoices are: the seller and the
 * customer, the invoice's number and dates, one row per line (quantity billed, usage and quota under it,
 * unit price, amount; each project's share under the line), then subtotal, credit, total, payment and
 * what is left to pay.
 */
export function renderInvoicePdf(
  invoice: InvoiceDetail,
  organizationName: string,
  seller: Seller,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
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
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(22).text('Invoice', MARGIN, MARGIN);
  doc
    .font('Helvetica-Bold')
    .fontSize(14)
    .text(seller.name, MARGIN, MARGIN + 4, { width, align: 'right' });
  doc.moveDown(1.2);
  const facts: [string, string][] = [
    ['Invoice number', invoice.number],
    ['Date of issue', formatInvoiceDate(invoice.finalized_at)],
    ['Billing period', formatPeriod(invoice.period_start, invoice.period_end)],
    ['Status', invoiceStatusLabel(invoice.status)],
  ];
  if (invoice.paid_at !== null) facts.push(['Date paid', formatInvoiceDate(invoice.paid_at)]);
  let y = MARGIN + 42;
  for (const [label, value] of facts) {
    doc.font('Helvetica').fontSize(9).fillColor(MUTED).text(label, MARGIN, y, { width: 100 });
    doc.fillColor(INK).text(value, MARGIN + 100, y, { width: 220 });
    y += 14;
  }

  // The seller and the customer, side by side.
  const blockTop = y + 22;
  const half = width / 2;
  const block = (x: number, title: string, lines: string[]) => {
    doc
      .font('Helvetica-Bold')
      .fontSize(9)
      .fillColor(INK)
      .text(title, x, blockTop, { width: half - 20 });
    doc.moveDown(0.3);
    doc.font('Helvetica').fontSize(9).fillColor(INK);
    const [first, ...rest] = lines;
    if (first) doc.font('Helvetica-Bold').text(first, x, doc.y, { width: half - 20 });
    doc.font('Helvetica');
    for (const text of rest) doc.text(text, x, doc.y, { width: half - 20 });
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
  const remaining = Math.max(0, invoice.amount_due - invoice.amount_paid);
  y = Math.max(sellerBottom, billToBottom) + 24;
  const headline =
    invoice.status === 'void'
      ? `${formatCents(invoice.amount_due)} · void, nothing to pay`
      : remaining === 0
        ? `${formatCents(invoice.amount_due)} paid${invoice.paid_at === null ? '' : ` on ${formatInvoiceDate(invoice.paid_at)}`}`
        : `${formatCents(remaining)} due`;
  doc.font('Helvetica-Bold').fontSize(15).fillColor(INK).text(headline, MARGIN, y, { width });
  if (isReverseCharge(seller.taxId, invoice.tax_id)) {
    // Under the amount, where whoever books the invoice looks first.
    doc
      .moveDown(0.3)
      .font('Helvetica-Bold')
      .fontSize(9)
      .text('Reverse charge', { continued: true })
      .font('Helvetica')
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
    doc.font('Helvetica-Bold').fontSize(8).fillColor(MUTED);
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
      doc.font('Helvetica').fontSize(8);
      const height = doc.heightOfString(text, { width: textWidth });
      room(height + 3);
      doc.font('Helvetica').fontSize(8).fillColor(MUTED);
      doc.text(text, MARGIN + 12, y, { width: textWidth });
      doc.text(formatCents(entry.amount), columns.amount.x, y, {
        width: columns.amount.width,
        align: 'right',
      });
      y += height + 3;
    }
  };

  for (const line of invoice.lines) {
    const row = lineRow(line);
    doc.font('Helvetica').fontSize(9);
    const heights = [
      doc.heightOfString(line.description, { width: columns.description.width }),
      doc.heightOfString(row.unitPrice, { width: columns.unitPrice.width }),
      doc.heightOfString(row.quantity || ' ', { width: columns.quantity.width }) +
        (row.detail
          ? doc.fontSize(8).heightOfString(row.detail, { width: columns.quantity.width }) + 2
          : 0),
    ];
    const height = Math.max(...heights);
    room(height + 10);
    doc.font('Helvetica').fontSize(9).fillColor(INK);
    doc.text(line.description, columns.description.x, y, { width: columns.description.width });
    doc.text(row.quantity, columns.quantity.x, y, { width: columns.quantity.width });
    if (row.detail) {
      doc
        .fontSize(8)
        .fillColor(MUTED)
        .text(row.detail, columns.quantity.x, doc.y + 2, { width: columns.quantity.width });
    }
    doc.font('Helvetica').fontSize(9).fillColor(INK);
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
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
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
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor(MUTED)
      .text(
        `${seller.name} · ${seller.addressLines.join(', ')} · VAT ID ${seller.taxId}\n` +
          `Amounts in US dollars. Credits apply to future invoices and are not refundable. ` +
          `Page ${index - range.start + 1} of ${range.count}`,
        MARGIN,
        doc.page.height - MARGIN - 22,
        { width, align: 'center', lineBreak: true },
      );
  }
  doc.end();
  return done;
}
