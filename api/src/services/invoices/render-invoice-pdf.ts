import {
  countryName,
  formatCents,
  formatInvoiceDate,
  invoiceStatusLabel,
  type InvoiceDetail,
} from '@meterline/domain';
import PDFDocument from 'pdfkit';

const MARGIN = 50;
const MUTED = '#6b7280';
const INK = '#111827';

/**
 * The invoice as a PDF, rendered from the stored invoice only: what was finalized is what is printed, down
 * to the billing name, address and tax ID of that day.
 */
export function renderInvoicePdf(
  invoice: InvoiceDetail,
  organizationName: string,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: `Invoice ${invoice.number}`, Author: 'Meterline', Subject: organizationName },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const width = doc.page.width - MARGIN * 2;
  doc.fillColor(INK).font('Helvetica-Bold').fontSize(20).text('Meterline', MARGIN, MARGIN);
  doc.font('Helvetica').fontSize(10).fillColor(MUTED).text('Cloud backend platform billing');
  doc
    .font('Helvetica-Bold')
    .fontSize(16)
    .fillColor(INK)
    .text(`Invoice ${invoice.number}`, MARGIN, MARGIN, { align: 'right', width });
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(MUTED)
    .text(`Status: ${invoiceStatusLabel(invoice.status)}`, { align: 'right', width })
    .text(`Issued: ${formatInvoiceDate(invoice.finalized_at)}`, { align: 'right', width })
    .text(
      `Period: ${formatInvoiceDate(invoice.period_start)} – ${formatInvoiceDate(invoice.period_end)}`,
      { align: 'right', width },
    );

  doc.moveDown(2);
  doc.font('Helvetica-Bold').fontSize(10).fillColor(INK).text('Billed to', MARGIN);
  doc.font('Helvetica').fillColor(INK);
  doc.text(invoice.billing_name ?? organizationName);
  const address = invoice.billing_address;
  if (address) {
    doc.text(address.line1);
    if (address.line2) doc.text(address.line2);
    doc.text([address.postal_code, address.city, address.state].filter(Boolean).join(' '));
    doc.text(countryName(address.country) ?? address.country);
  }
  if (invoice.tax_id) doc.text(`Tax ID: ${invoice.tax_id.value}`);
  if (invoice.billing_email) doc.fillColor(MUTED).text(invoice.billing_email);

  doc.moveDown(1.5);
  const columns = { description: MARGIN, usage: MARGIN + 270, amount: MARGIN + width - 100 };
  const header = doc.y;
  doc.font('Helvetica-Bold').fillColor(MUTED).fontSize(9);
  doc.text('DESCRIPTION', columns.description, header);
  doc.text('UNIT PRICE', columns.usage, header);
  doc.text('AMOUNT', columns.amount, header, { width: 100, align: 'right' });
  doc
    .moveTo(MARGIN, doc.y + 4)
    .lineTo(MARGIN + width, doc.y + 4)
    .strokeColor('#e5e7eb')
    .stroke();
  doc.moveDown(0.8);

  doc.font('Helvetica').fontSize(10).fillColor(INK);
  for (const line of invoice.lines) {
    if (doc.y > doc.page.height - 160) doc.addPage();
    const top = doc.y;
    doc.fillColor(INK).text(line.description, columns.description, top, { width: 260 });
    const afterDescription = doc.y;
    doc.fillColor(MUTED).text(line.unit_price_desc, columns.usage, top, { width: 150 });
    doc
      .fillColor(INK)
      .text(formatCents(line.amount), columns.amount, top, { width: 100, align: 'right' });
    doc.y = Math.max(afterDescription, doc.y) + 6;
  }

  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + width, doc.y)
    .strokeColor('#e5e7eb')
    .stroke();
  doc.moveDown(0.8);
  const total = (label: string, cents: number, bold = false) => {
    const top = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fillColor(INK);
    doc.text(label, columns.usage, top, { width: 150 });
    doc.text(formatCents(cents), columns.amount, top, { width: 100, align: 'right' });
    doc.moveDown(0.4);
  };
  total('Subtotal', invoice.subtotal);
  if (invoice.credit_applied > 0) total('Credit applied', -invoice.credit_applied);
  total('Amount due', invoice.amount_due, true);
  if (invoice.amount_paid > 0) total('Amount paid', invoice.amount_paid);

  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor(MUTED)
    .text(
      'Amounts in US dollars. Credits apply to future invoices and are not refundable.',
      MARGIN,
      doc.page.height - MARGIN - 20,
      { width, align: 'center' },
    );
  doc.end();
  return done;
}
