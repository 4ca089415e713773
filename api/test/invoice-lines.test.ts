import {
  Rationals as Q,
  invoiceDetailSchema,
  invoiceListSchema,
  roundHalfUp,
  upcomingInvoiceSchema,
  type UpcomingInvoiceLine,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { configFrom } from '../src/config.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { DEMO_ORGANIZATIONS } from '../src/seed/demo-world-data.ts';
import { organizationIdOf } from './support/payments.ts';
import { pdfText } from './support/pdf-text.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

/**
 * quantity × unit_price, both as the API states them, rounded half up: the line's amount. Every line
 * has both: compute credits and an enterprise plan line too.
 */
function reconciles(
  line: Pick<UpcomingInvoiceLine, 'quantity' | 'amount'> & { unit_price: number | null },
) {
  if (line.unit_price === null) return false;
  const exact = Q.multiply(
    Q.rationalFromNumber(line.quantity),
    Q.rationalFromNumber(line.unit_price),
  );
  return roundHalfUp(exact) === line.amount;
}

describe.each(testDatabases())('invoice lines a person can check (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database, clock });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  it('every line of every demo upcoming invoice: quantity × unit_price rounds to the amount', async () => {
    let checked = 0;
    const seen = new Set<string>();
    const owners = DEMO_ORGANIZATIONS.filter((org) =>
      org.members.some(([email]) => email === 'owner@example.com'),
    );
    for (const { slug } of owners) {
      const response = await owner.get(`/platform/organizations/${slug}/billing/invoices/upcoming`);
      expect(response.status, slug).toBe(200);
      const invoice = upcomingInvoiceSchema.parse(response.body);
      for (const line of invoice.lines) {
        expect(reconciles(line), `${slug}: ${line.description}`).toBe(true);
        checked++;
        seen.add(line.description);
        if (line.usage_based) {
          expect(line.usage_original, `${slug}: ${line.description}`).not.toBeNull();
          expect(line.included_quantity, `${slug}: ${line.description}`).not.toBeNull();
        } else {
          expect(line.included_quantity).toBeNull();
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
    // The lines that answered no unit price before.
    expect(seen).toContain('Compute Credits');
    expect(seen).toContain('Enterprise Plan');
  });

  it('payg-co: an overage line answers its whole usage, the quota and the billable GB', async () => {
    const response = await owner.get('/platform/organizations/payg-co/billing/invoices/upcoming');
    const invoice = upcomingInvoiceSchema.parse(response.body);
    const egress = invoice.lines.find((line) => line.description === 'Egress');
    const users = invoice.lines.find((line) => line.description === 'Monthly Active Users');
    expect(egress).toMatchObject({ included_quantity: 250e9, unit_price: 9 });
    expect(users).toMatchObject({ included_quantity: 100_000, unit_price: 0.325 });
    if (!egress || !users) throw new Error('payg-co has egress and MAU overage');
    expect(egress.quantity).toBeCloseTo(
      ((egress.usage_original ?? 0) - (egress.included_quantity ?? 0)) / 1e9,
      5,
    );
    expect(users.quantity).toBe((users.usage_original ?? 0) - 100_000);
  });

  it('a finalized invoice keeps the included quantity, and its PDF states seller, quantities, payment and reverse charge', async () => {
    const base = '/platform/organizations/acme-pro/billing/invoices';
    const list = invoiceListSchema.parse((await owner.get(`${base}?limit=20`)).body);
    const paid = list.find((invoice) => invoice.status === 'paid');
    if (!paid) throw new Error('acme-pro has paid invoices');
    const detail = invoiceDetailSchema.parse((await owner.get(`${base}/${paid.id}`)).body);
    const usage = detail.lines.filter((line) => line.usage_based);
    expect(usage.length).toBeGreaterThan(0);
    for (const line of detail.lines) {
      if (line.quantity === null) continue;
      expect(reconciles({ ...line, quantity: line.quantity }), line.description).toBe(true);
    }
    for (const line of usage) expect(line.included_quantity).toBe(0);
    expect(detail.amount_paid).toBe(detail.amount_due);
    expect(detail.paid_with).toEqual({ brand: 'visa', last4: '4242' });

    const pdfBytes = (await owner.bytes(paid.invoice_pdf)).body;
    if (process.env.DUMP_PDF)
      (await import('node:fs')).writeFileSync(process.env.DUMP_PDF, pdfBytes);
    const text = await pdfText(pdfBytes);
    for (const expected of [
      paid.number,
      'From',
      'Meterline B.V.',
      'Keizersgracht 123',
      'VAT ID: NL123456789B01',
      'Bill to',
      'Acme Pro Inc.',
      'QUANTITY',
      'UNIT PRICE',
      'Credit applied',
      'Amount paid (Visa ending 4242)',
      'Reverse charge',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // A compute line: its hours times its price per hour.
    expect(text).toMatch(/Compute Hours \w+\s+[\d,.]+ hours\s+\$0\.\d+ per hour\s+\$[\d,.]+/);
  });

  it("payg-co's closed cycle: the finalized overage lines keep usage, quota and billable quantity, and the PDF says them", async () => {
    const slug = 'payg-co';
    const upcoming = upcomingInvoiceSchema.parse(
      (await owner.get(`/platform/organizations/${slug}/billing/invoices/upcoming`)).body,
    );
    // Past the cycle's end and its grace for late usage: the job closes it into an invoice.
    clock.set(new Date(Date.parse(upcoming.billing_cycle_end) + 2 * 3600 * 1000));
    // The jump outlasts the session: sign in again, in the new time.
    owner = await server.signIn('owner@example.com');
    const organizationId = await organizationIdOf(server.database.db, slug);
    await runBillingJobs(
      { db: server.database.db, gateway: server.gateway, clock },
      clock.now(),
      organizationId,
    );
    const base = `/platform/organizations/${slug}/billing/invoices`;
    const [closed] = invoiceListSchema.parse((await owner.get(base)).body);
    if (!closed) throw new Error('the cycle closed into an invoice');
    const detail = invoiceDetailSchema.parse((await owner.get(`${base}/${closed.id}`)).body);
    const egress = detail.lines.find((line) => line.description === 'Egress');
    expect(egress).toMatchObject({ included_quantity: 250e9, unit_price: 9, usage_based: true });
    for (const line of detail.lines) {
      if (line.quantity === null) continue;
      expect(reconciles({ ...line, quantity: line.quantity }), line.description).toBe(true);
    }
    const pdfBytes = (await owner.bytes(closed.invoice_pdf)).body;
    if (process.env.DUMP_PDF) {
      (await import('node:fs')).writeFileSync(`${process.env.DUMP_PDF}.payg.pdf`, pdfBytes);
    }
    const text = await pdfText(pdfBytes);
    expect(text).toMatch(/Egress\s+[\d,.]+ GB\s+[\d,.]+ GB used, 250 GB included/);
    expect(text).toMatch(/[\d,.]+ MAU used, 100,000 MAU\s+included/);
    expect(text).toContain('$0.09 per GB');
  });

  it('states no reverse charge for a customer without an EU VAT number', async () => {
    const base = '/platform/organizations/acme-team/billing/invoices';
    const [invoice] = invoiceListSchema.parse((await owner.get(base)).body);
    if (!invoice) throw new Error('acme-team has invoices');
    const text = await pdfText((await owner.bytes(invoice.invoice_pdf)).body);
    expect(text).toContain('Acme Team Ltd.');
    expect(text).not.toContain('Reverse charge');
  });
});

describe('the seller configuration', () => {
  it('has demo defaults and reads address lines separated by semicolons', () => {
    expect(configFrom({})).toMatchObject({
      SELLER_NAME: 'Meterline B.V.',
      SELLER_ADDRESS: ['Keizersgracht 123', '1015 CJ Amsterdam', 'Netherlands'],
      SELLER_TAX_ID: 'NL123456789B01',
    });
    expect(
      configFrom({ SELLER_ADDRESS: '1 Main Street; Springfield, IL 62701 ;United States' })
        .SELLER_ADDRESS,
    ).toEqual(['1 Main Street', 'Springfield, IL 62701', 'United States']);
  });
});
