import { parse } from 'csv-parse/sync';
import { invoiceListSchema } from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { testDatabases, useSignedInServer } from './support/server.ts';

// Invoices and usage: CSV downloads, RFC 4180 through csv-stringify, UTF-8 with a
// header row, formulas neutralized, a safe file name, the same permission as the data.

/** The rows of a CSV (fetch's text decoding has dropped its byte-order mark). */
function rowsOf(text: string): Record<string, string>[] {
  return parse(text, { columns: true }) as Record<string, string>[];
}

describe.each(testDatabases())('CSV exports (%s)', (database) => {
  const { server, as } = useSignedInServer({ database });

  it("acme-pro's invoices: 13 rows whose amounts equal the list's, named safely, a formula made harmless", async () => {
    const db = server().database.db;
    const org = { id: await server().organizationId('acme-pro') };
    const newest = await db
      .selectFrom('invoices')
      .select('id')
      .where('organization_id', '=', org.id)
      .orderBy('sequence', 'desc')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('invoices')
      .set({ billing_name: '=HYPERLINK("http://evil.example","Click")' })
      .where('id', '=', newest.id)
      .execute();

    const response = await as('readonly').get<string>(
      '/platform/organizations/acme-pro/billing/invoices/export',
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="acme-pro-invoices-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = response.body;
    expect(text.split('\r\n')[0]).toBe(
      `number,date,period_start,period_end,status,currency,subtotal,credit_applied,amount_due,amount_paid,billing_name,tax_id`,
    );
    const rows = rowsOf(text);
    expect(rows).toHaveLength(13);
    // UTF-8 with a byte-order mark, for spreadsheets.
    const bytes = await as('readonly').bytes(
      '/platform/organizations/acme-pro/billing/invoices/export',
    );
    expect([...bytes.body.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(rows[0]?.billing_name).toBe('\'=HYPERLINK("http://evil.example","Click")');

    const list = await as('owner').get(
      '/platform/organizations/acme-pro/billing/invoices?limit=100',
    );
    const invoices = invoiceListSchema.parse(list.body);
    expect(rows.map((row) => [row.number, Math.round(Number(row.amount_due) * 100)])).toEqual(
      invoices.map((invoice) => [invoice.number, invoice.amount_due]),
    );
  });

  it("payg-co's daily usage between two days: each project's usage per metric, in its metering unit", async () => {
    const url = (query: string) => `/platform/organizations/payg-co/usage/export?${query}`;
    const day = (offset: number) =>
      new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const response = await as('developer').get<string>(url(`start=${day(-40)}&end=${day(0)}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="payg-co-usage-${day(-40)}-${day(0)}.csv"`,
    );
    const rows = rowsOf(response.body);
    expect(rows.length).toBeGreaterThan(0);
    const egress = rows.filter((row) => row.metric === 'EGRESS');
    expect(
      egress.every((row) => row.unit === 'bytes' && row.project_ref?.startsWith('paygco')),
    ).toBe(true);
    // The same figures as the usage page's daily series, summed over projects.
    const daily = await as('developer').get<{
      data: { date: string; metric: string; usage: number }[];
    }>(`/platform/organizations/payg-co/usage/daily?start=${day(-40)}&end=${day(0)}`);
    const pageEgress = daily.body.data
      .filter((point) => point.metric === 'EGRESS')
      .reduce((sum, point) => sum + point.usage, 0);
    const csvEgress = egress.reduce((sum, row) => sum + Number(row.usage), 0);
    expect(csvEgress).toBeCloseTo(pageEgress, 0);

    const bad = await as('developer').get<{ message: string }>(
      url(`start=${day(0)}&end=${day(-1)}`),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/end/);
  });

  it('lets each user export 10 times a minute, then answers 429 with Retry-After; others still export', async () => {
    const path = '/platform/organizations/acme-pro/billing/invoices/export';
    // admin exports nothing else in this file.
    const answers = await Promise.all(Array.from({ length: 12 }, () => as('admin').get(path)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2);
    const refused = answers.find((answer) => answer.status === 429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await as('readonly').get(path)).status).toBe(200);
  });

  it('answers as the data does: 404 to an outsider, 401 without a session', async () => {
    const path = '/platform/organizations/acme-pro/billing/invoices/export';
    expect((await as('outsider').get(path)).status).toBe(404);
    expect((await fetch(`${server().url}${path}`)).status).toBe(401);
    const usage = '/platform/organizations/acme-pro/usage/export?start=2026-01-01&end=2026-01-31';
    expect((await as('outsider').get(usage)).status).toBe(404);
  });
});
