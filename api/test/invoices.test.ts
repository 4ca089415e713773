import {
  formatCents,
  invoiceDetailSchema,
  invoiceListSchema,
  type Invoice,
  type InvoiceDetail,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from './support/pdf-text.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

describe.each(testDatabases())('past invoices (%s)', (database) => {
  let server: TestServer;
  let owner: TestClient;
  const base = '/platform/organizations/acme-pro/billing/invoices';

  beforeAll(async () => {
    server = await startTestServer({ database });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  async function page(offset: number, limit = 5): Promise<Invoice[]> {
    const response = await owner.get(`${base}?offset=${offset}&limit=${limit}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('13');
    return invoiceListSchema.parse(response.body);
  }

  it('pages through 13 invoices in 3 pages, newest first, none repeated or skipped', async () => {
    const pages = [await page(0), await page(5), await page(10)];
    expect(pages.map((invoices) => invoices.length)).toEqual([5, 5, 3]);
    const all = pages.flat();
    expect(new Set(all.map((invoice) => invoice.id)).size).toBe(13);
    const ends = all.map((invoice) => invoice.period_end);
    expect(ends).toEqual([...ends].sort((a, b) => b - a));
    expect(await page(15)).toEqual([]);
    expect(all.map((invoice) => invoice.status).sort()).toEqual([
      ...Array<string>(1).fill('open'),
      ...Array<string>(11).fill('paid'),
      'void',
    ]);
    const open = all.find((invoice) => invoice.status === 'open');
    expect(open).toMatchObject({ payment_attempted: true });
    expect(all[0]).toBe(open);
  });

  it('gives the count on HEAD', async () => {
    const response = await owner.request('HEAD', base);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-total-count')).toBe('13');
    const none = await owner.request('HEAD', '/platform/organizations/acme-free/billing/invoices');
    expect(none.headers.get('x-total-count')).toBe('0');
  });

  it('refuses a bad page with 400 naming the field', async () => {
    const response = await owner.get<{ message: string }>(`${base}?limit=1000`);
    expect(response.status).toBe(400);
    expect(response.body.message).toContain('limit');
  });

  it('returns one invoice with lines that add up to its total', async () => {
    const [newest] = await page(0, 1);
    const response = await owner.get(`${base}/${newest?.id}`);
    const invoice = invoiceDetailSchema.parse(response.body);
    expect(invoice.lines.reduce((sum, line) => sum + line.amount, 0)).toBe(invoice.total);
    expect(invoice.amount_due).toBe(invoice.total - invoice.credit_applied);
    expect(invoice.billing_name).toBe('Acme Pro Inc.');
    expect(invoice.tax_id?.value).toMatch(/^IE/);
    expect(invoice.invoice_pdf).toBe(`${base}/${newest?.id}/pdf`);
  });

  it('renders a real PDF with the same number and total, behind the same permission', async () => {
    const [newest] = await page(0, 1);
    if (!newest) throw new Error('no invoice');
    const pdf = await owner.bytes(newest.invoice_pdf);
    expect(pdf.status).toBe(200);
    expect(pdf.type).toBe('application/pdf');
    const file = Buffer.from(pdf.body); // a copy: pdf.js takes the bytes it reads
    const text = await pdfText(pdf.body);
    expect(text).toContain('Invoice');
    expect(text).toContain(newest.number);
    expect(text).toContain(formatCents(newest.total));
    expect(text).toContain('Acme Pro Inc.');
    expect(text).toContain('Ireland');
    // The same invoice is the same file: dated the day it was finalized, not the second it was fetched.
    const detail = await owner.get<InvoiceDetail>(`${base}/${newest.id}`);
    const finalized = new Date(detail.body.finalized_at * 1000).toISOString().replace(/[-:T]/g, '');
    expect(file.toString('latin1')).toContain(`(D:${finalized.slice(0, 14)}Z)`);
    expect(Buffer.from((await owner.bytes(newest.invoice_pdf)).body).equals(file)).toBe(true);
    const readonly = await server.signIn('readonly@example.com');
    expect((await readonly.bytes(newest.invoice_pdf)).status).toBe(200);
    const outsider = await server.signIn('outsider@example.com');
    expect((await outsider.bytes(newest.invoice_pdf)).status).toBe(404);
    expect((await server.client().bytes(newest.invoice_pdf)).status).toBe(401);
  });

  it('keeps from a read-only member the billing details, tax ID and card that the role matrix keeps from it elsewhere', async () => {
    const all = [...(await page(0)), ...(await page(5)), ...(await page(10))];
    const detailOf = async (client: TestClient, id: string) =>
      invoiceDetailSchema.parse((await client.get(`${base}/${id}`)).body);
    let paid: InvoiceDetail | undefined;
    for (const invoice of all.filter((candidate) => candidate.status === 'paid')) {
      const detail = await detailOf(owner, invoice.id);
      if (detail.paid_with) {
        paid = detail;
        break;
      }
    }
    if (!paid) throw new Error('no invoice paid by card');
    expect(paid).toMatchObject({
      billing_name: 'Acme Pro Inc.',
      billing_address: { country: 'IE' },
    });
    expect(paid.tax_id?.value).toMatch(/^IE/);

    // A developer reads addresses, tax IDs and cards: the same invoice, whole.
    const developer = await server.signIn('developer@example.com');
    expect(await detailOf(developer, paid.id)).toEqual(paid);

    const readonly = await server.signIn('readonly@example.com');
    expect(await detailOf(readonly, paid.id)).toEqual({
      ...paid,
      billing_name: null,
      billing_email: null,
      billing_address: null,
      tax_id: null,
      paid_with: null,
    });
    const ownText = await pdfText((await owner.bytes(paid.invoice_pdf)).body);
    const readonlyText = await pdfText((await readonly.bytes(paid.invoice_pdf)).body);
    for (const hidden of ['Acme Pro Inc.', 'Ireland', paid.tax_id?.value ?? '', 'ending']) {
      expect(ownText).toContain(hidden);
      expect(readonlyText).not.toContain(hidden);
    }
    expect(readonlyText).toContain(paid.number);
    expect(readonlyText).toContain(formatCents(paid.total));
  });

  it("does not show another organization's invoice under this one", async () => {
    const team = await owner.get<Invoice[]>('/platform/organizations/acme-team/billing/invoices');
    const teamInvoice = team.body[0];
    expect(teamInvoice).toBeDefined();
    expect((await owner.get(`${base}/${teamInvoice?.id}`)).status).toBe(404);
    expect((await owner.bytes(`${base}/${teamInvoice?.id}/pdf`)).status).toBe(404);
    expect((await owner.get(`${base}/${teamInvoice?.id}/payment-link`)).status).toBe(404);
  });

  it('gives a payment link for the open invoice to those who may pay', async () => {
    const all = [...(await page(0)), ...(await page(5)), ...(await page(10))];
    const open = all.find((invoice) => invoice.status === 'open');
    const paid = all.find((invoice) => invoice.status === 'paid');
    const link = await owner.get<{ redirectUrl: string }>(`${base}/${open?.id}/payment-link`);
    expect(link.status).toBe(200);
    expect(link.body.redirectUrl).toContain(open?.id);
    expect((await owner.get(`${base}/${paid?.id}/payment-link`)).status).toBe(409);
    for (const user of ['developer', 'readonly']) {
      const client = await server.signIn(`${user}@example.com`);
      expect((await client.get(`${base}/${open?.id}/payment-link`)).status).toBe(403);
    }
  });

  it('lists no invoices for a free organization', async () => {
    const response = await owner.get('/platform/organizations/acme-free/billing/invoices');
    expect(response.body).toEqual([]);
    expect(response.headers.get('x-total-count')).toBe('0');
  });
});
