import {
  formatInvoiceDate,
  invoiceDetailSchema,
  invoiceListSchema,
  payLinkInvoiceSchema,
  subscriptionSchema,
  type InvoiceDetail,
} from '@meterline/domain';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCycle } from '../src/services/invoices/close-cycle.ts';
import { pdfText } from './support/pdf-text.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

// The invoice PDF as a customer and a tax office read it: names in any script, embedded fonts, and for an
// invoice with something left to pay, its due date and the signed link that pays it.

const PUBLIC_URL = 'https://billing.example.com';
const DAY = 86_400;

/** The web links of a PDF's first page (its link annotations). */
async function pdfLinks(bytes: Uint8Array): Promise<string[]> {
  const document = await getDocument({ data: bytes, verbosity: 0 }).promise;
  const annotations = (await (await document.getPage(1)).getAnnotations()) as { url?: string }[];
  await document.destroy();
  return annotations.flatMap((annotation) => (annotation.url ? [annotation.url] : []));
}

describe.each(testDatabases())('the invoice PDF (%s)', (database) => {
  let server: TestServer;
  let owner: TestClient;
  const org = '/platform/organizations/acme-pro';
  const base = `${org}/billing/invoices`;

  beforeAll(async () => {
    server = await startTestServer({ database, env: { PUBLIC_URL } });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  async function invoices(): Promise<InvoiceDetail[]> {
    const list = invoiceListSchema.parse((await owner.get(`${base}?limit=100`)).body);
    return Promise.all(
      list.map(async (invoice) =>
        invoiceDetailSchema.parse((await owner.get(`${base}/${invoice.id}`)).body),
      ),
    );
  }

  const pdfOf = async (client: TestClient, invoice: InvoiceDetail) => {
    const response = await client.bytes(invoice.invoice_pdf);
    expect(response.status).toBe(200);
    return response.body;
  };
  // pdf.js gives each font's run of text as its own item; the reader's copy joins them with a space.
  const textOf = async (bytes: Uint8Array) => (await pdfText(bytes)).replace(/\s+/g, ' ');

  it('shows an open invoice its due date and the signed link that pays it, to one who may pay', async () => {
    const open = (await invoices()).find((invoice) => invoice.status === 'open');
    if (!open) throw new Error('acme-pro has no open invoice');
    const bytes = await pdfOf(owner, open);
    const text = await textOf(Uint8Array.from(bytes));
    const due = formatInvoiceDate(open.finalized_at + 14 * DAY);
    expect(text).toContain(`Date due ${due}`);
    expect(text).toContain(`due ${due}`);

    // One link, whose every line (a long link wraps) is clickable.
    const links = [...new Set(await pdfLinks(Uint8Array.from(bytes)))];
    expect(links).toHaveLength(1);
    const link = new URL(links[0] ?? '');
    expect(link.origin).toBe(PUBLIC_URL);
    expect(link.pathname).toBe(`/pay/invoices/${open.id}`);
    expect(link.searchParams.get('org')).toBe('acme-pro');
    // Printed whole, for a paper copy (a long link wraps; the words of the text run together again).
    expect(text.replace(/ /g, '')).toContain(links[0]);

    // Followed, it names this invoice to whoever holds it, with no session.
    const key = link.searchParams.get('key') ?? '';
    const page = await server
      .client()
      .get(`/platform/pay/invoices/${open.id}?key=${encodeURIComponent(key)}`);
    expect(page.status).toBe(200);
    const shown = payLinkInvoiceSchema.parse(page.body);
    expect(shown.invoice).toMatchObject({ id: open.id, number: open.number });

    // A member who may read invoices but not pay them gets when it is due, not the link.
    for (const user of ['readonly', 'developer']) {
      const member = await server.signIn(`${user}@example.com`);
      const memberBytes = await pdfOf(member, open);
      expect(await textOf(Uint8Array.from(memberBytes))).toContain(`Date due ${due}`);
      expect(await pdfLinks(Uint8Array.from(memberBytes))).toEqual([]);
      expect(await pdfText(memberBytes)).not.toContain('Pay online');
    }
  });

  it('shows a paid invoice the card that paid it, and no due date or link', async () => {
    const paid = (await invoices()).find(
      (invoice) => invoice.status === 'paid' && invoice.paid_with !== null,
    );
    if (!paid) throw new Error('acme-pro has no invoice paid by card');
    const bytes = await pdfOf(owner, paid);
    const text = await textOf(Uint8Array.from(bytes));
    expect(text).toMatch(/Amount paid \(Visa ending \d{4}\)/);
    expect(text).not.toContain('Date due');
    expect(text).not.toContain('Pay online');
    expect(await pdfLinks(bytes)).toEqual([]);
  });

  it('prints billing names and addresses in Latin, Greek, Cyrillic and CJK scripts as typed', async () => {
    const customer = {
      billing_name: 'Łódź Żółć Sp. z o.o. 東京',
      address: {
        line1: 'Οδός Αθηνάς 1',
        line2: '서울 İstanbul Şişli · Hà Nội Đống Đa',
        city: 'Москва',
        postal_code: '00-950',
        country: 'PL',
      },
    };
    const saved = await owner.request('PUT', `${org}/customer`, customer);
    expect(saved.status).toBe(200);

    // An invoice keeps the billing details of the day it is finalized: the next cycle's invoice.
    const subscription = subscriptionSchema.parse(
      (await owner.get(`${org}/billing/subscription`)).body,
    );
    const organization = await server.database.db
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'acme-pro')
      .executeTakeFirstOrThrow();
    const closedAt = new Date((subscription.current_period_end + 2 * 3600) * 1000);
    expect((await closeCycle(server.database.db, organization.id, closedAt, 60)).status).toBe(
      'closed',
    );
    const [newest] = await invoices();
    if (!newest) throw new Error('no invoice');
    expect(newest.billing_name).toBe(customer.billing_name);

    const bytes = await pdfOf(owner, newest);
    const text = await textOf(Uint8Array.from(bytes));
    for (const printed of [
      'Łódź Żółć Sp. z o.o. 東京',
      'Οδός Αθηνάς 1',
      '서울 İstanbul Şişli · Hà Nội Đống Đa',
      '00-950 Москва',
      'Poland',
    ]) {
      expect(text).toContain(printed);
    }
    // The fonts are embedded, and only the glyphs used: the file stays small.
    const file = Buffer.from(bytes).toString('latin1');
    expect(file).toMatch(/\/FontFile[23]/);
    expect(file).not.toContain('/Helvetica');
    expect(bytes.byteLength).toBeLessThan(200_000);
  });
});
