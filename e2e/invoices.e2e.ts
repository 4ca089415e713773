import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  apiResponse,
  billingSection,
  dollars,
  gotoBilling,
  eventually,
  useHarness,
} from './support/billing.ts';
import {} from './support/harness.ts';

// What an organization owes, as the billing page shows it. Past Invoices paging through
// acme-pro's 13 invoices, the PDF download, the upcoming invoice's total, the empty state.

interface ApiInvoice {
  id: string;
  number: string;
  status: string;
  amount_due: number;
  invoice_pdf: string;
}

const harness = useHarness();

/** Every invoice of an organization, newest first, straight from the API. */
async function apiInvoices(page: Page, slug: string): Promise<ApiInvoice[]> {
  const response = await page.request.get(
    `/platform/organizations/${slug}/billing/invoices?offset=0&limit=50`,
  );
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiInvoice[];
}

/** Which of the given invoice numbers the section shows right now, in the order given. */
async function shownNumbers(section: Locator, numbers: string[]): Promise<string[]> {
  const text = await section.innerText();
  return numbers.filter((number) => text.includes(number));
}

/** An element of the upcoming invoice that holds both a label and exactly this amount: its row. */
function labelledAmount(page: Page, label: RegExp, amount: string): Locator {
  return billingSection(page, 'breakdown')
    .locator('*')
    .filter({ hasText: label })
    .filter({ has: page.getByText(amount, { exact: true }) })
    .last();
}

describe('Past Invoices', () => {
  test('acme-pro pages through 13 invoices over 3 pages, none repeated or skipped', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const all = await apiInvoices(page, 'acme-pro');
    expect(all).toHaveLength(13);
    const numbers = all.map((invoice) => invoice.number);

    await gotoBilling(page, 'acme-pro');
    const invoices = billingSection(page, 'invoices');
    const previous = invoices.getByRole('button', { name: 'Previous page' });
    const next = invoices.getByRole('button', { name: 'Next page' });
    const seen: string[] = [];
    // The columns stay still from page to page, whether or not a row offers
    // Pay Now (acme-pro's one open invoice is on one page only).
    const columnEdges = () =>
      invoices
        .getByRole('columnheader')
        .evaluateAll((cells) => cells.map((cell) => Math.round(cell.getBoundingClientRect().left)));
    const edges: number[][] = [];
    const payNows: number[] = [];

    const pages = [
      { summary: 'Showing 1 to 5 out of 13 invoices', from: 0, to: 5 },
      { summary: 'Showing 6 to 10 out of 13 invoices', from: 5, to: 10 },
      { summary: 'Showing 11 to 13 out of 13 invoices', from: 10, to: 13 },
    ];
    for (const [index, { summary, from, to }] of pages.entries()) {
      if (index > 0) await next.click();
      await invoices.getByText(summary, { exact: true }).waitFor();
      const expected = numbers.slice(from, to);
      await eventually(() => shownNumbers(invoices, numbers)).toEqual(expected);
      seen.push(...expected);
      payNows.push(await invoices.getByRole('button', { name: 'Pay Now' }).count());
      edges.push(await columnEdges());
      expect(await previous.isDisabled(), `Previous page on page ${index + 1}`).toBe(index === 0);
      expect(await next.isDisabled(), `Next page on page ${index + 1}`).toBe(index === 2);
    }
    expect(new Set(seen).size).toBe(13);
    expect(payNows.filter((count) => count > 0)).toHaveLength(1);
    expect(edges[1]).toEqual(edges[0]);
    expect(edges[2]).toEqual(edges[0]);
    expect([...seen].sort()).toEqual([...numbers].sort());

    await previous.click();
    await invoices.getByText('Showing 6 to 10 out of 13 invoices', { exact: true }).waitFor();
    await eventually(() => shownNumbers(invoices, numbers)).toEqual(numbers.slice(5, 10));
  });

  test('"Download invoice" opens the invoice PDF in a new tab', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const [newest] = await apiInvoices(page, 'acme-pro');
    if (!newest) throw new Error('acme-pro has no invoices');
    const context = page.context();
    const pdfResponses = new Map<string, string>();
    context.on('response', (response) => {
      if (new URL(response.url()).pathname === newest.invoice_pdf) {
        pdfResponses.set(response.url(), response.headers()['content-type'] ?? '');
      }
    });

    await gotoBilling(page, 'acme-pro');
    const invoices = billingSection(page, 'invoices');
    // The innermost element holding both the newest invoice's number and a download button: its row.
    const row = invoices
      .locator('*')
      .filter({ hasText: newest.number })
      .filter({ has: page.getByRole('button', { name: 'Download invoice' }) })
      .last();
    const button = row.getByRole('button', { name: 'Download invoice' });
    await button.waitFor();
    const [popup] = await Promise.all([context.waitForEvent('page'), button.click()]);

    await eventually(() => new URL(popup.url(), harness().baseUrl).pathname).toBe(
      newest.invoice_pdf,
    );
    await eventually(() => [...pdfResponses.values()]).not.toEqual([]);
    expect([...pdfResponses.values()][0]).toMatch(/^application\/pdf/);
    expect(new URL(page.url()).pathname).toBe('/org/acme-pro/billing');
  });

  test('status labels follow the spec, and Pay Now shows only for an outstanding amount', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const all = await apiInvoices(page, 'acme-pro');
    await gotoBilling(page, 'acme-pro');
    const invoices = billingSection(page, 'invoices');
    const LABELS: Record<string, string> = {
      draft: 'Upcoming',
      paid: 'Paid',
      void: 'Forgiven',
      uncollectible: 'Outstanding',
      open: 'Outstanding',
      issued: 'Outstanding',
    };
    for (const invoice of all.slice(0, 5)) {
      const row = invoices
        .locator('*')
        .filter({ hasText: invoice.number })
        .filter({ has: page.getByRole('button', { name: 'Download invoice' }) })
        .last();
      await row.waitFor();
      const label = LABELS[invoice.status] ?? '';
      expect(await row.getByText(label, { exact: true }).count(), invoice.number).toBe(1);
      const payable =
        invoice.amount_due > 0 && ['uncollectible', 'open', 'issued'].includes(invoice.status);
      expect(await row.getByRole('button', { name: 'Pay Now' }).count(), invoice.number).toBe(
        payable ? 1 : 0,
      );
    }
    expect(all.slice(0, 5).map((invoice) => invoice.status)).toContain('open');
  });

  test('the page goes back to 1 when the organization changes', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    const invoices = billingSection(page, 'invoices');
    await invoices.getByText('Showing 1 to 5 out of 13 invoices', { exact: true }).waitFor();
    await invoices.getByRole('button', { name: 'Next page' }).click();
    await invoices.getByText('Showing 6 to 10 out of 13 invoices', { exact: true }).waitFor();

    await page.getByRole('button', { name: /Switch organization/ }).click();
    await page.getByRole('link', { name: /^Acme Team/ }).click();
    await page.waitForURL((url) => url.pathname === '/org/acme-team/billing');
    await billingSection(page, 'invoices')
      .getByText('Showing 1 to 3 out of 3 invoices', { exact: true })
      .waitFor();
  });

  test('acme-free shows the empty state', async () => {
    const page = await harness().sessionPage('owner@example.com');
    expect(await apiInvoices(page, 'acme-free')).toEqual([]);
    await gotoBilling(page, 'acme-free');
    await billingSection(page, 'invoices')
      .getByText('No invoices for this organization yet', { exact: true })
      .waitFor();
  });
});

describe('Upcoming invoice', () => {
  test('the total shown is the API’s amount_total in dollars', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const upcoming = apiResponse(
      page,
      '/platform/organizations/acme-pro/billing/invoices/upcoming',
    );
    await gotoBilling(page, 'acme-pro');
    const answer = await upcoming;
    expect(answer.status()).toBe(200);
    const { amount_total } = (await answer.json()) as { amount_total: number };
    expect(Number.isInteger(amount_total)).toBe(true);

    await labelledAmount(page, /total/i, dollars(amount_total)).waitFor();
  });

  test('the projected amount shown is the API’s amount_projected in dollars', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const upcoming = apiResponse(
      page,
      '/platform/organizations/acme-pro/billing/invoices/upcoming',
    );
    await gotoBilling(page, 'acme-pro');
    const { amount_projected } = (await (await upcoming).json()) as { amount_projected: number };

    await labelledAmount(page, /project/i, dollars(amount_projected)).waitFor();
  });
});
