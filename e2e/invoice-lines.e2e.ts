import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { billingSection, gotoBilling, useHarness } from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';
import { pdfLayoutText } from './support/pdf-lines.ts';

// Every usage line reconciles by hand. For every demo organization, each usage line of
// the upcoming invoice as the billing page shows it, and of every invoice PDF as its text reads, is
// recomputed from what is displayed: the billable quantity times the unit price, rounded half up to the
// cent, is the amount. The arithmetic is done here, on the displayed decimals, not by the product.

interface ApiLine {
  description: string;
  amount: number;
  usage_based: boolean;
  unit_price: number | null;
}
interface ApiInvoice {
  id: string;
  number: string;
  status: string;
  amount_due: number;
  invoice_pdf: string;
}

const harness = useHarness();
const SHOTS = process.env.E2E_SCREENSHOTS;

/** "1,234.5" as an exact decimal: digits and how many of them are decimals. */
function decimal(text: string): { digits: bigint; scale: number } {
  const clean = text.replaceAll(',', '');
  if (!/^-?\d+(\.\d+)?$/.test(clean)) throw new Error(`not a decimal: ${text}`);
  const [whole = '', fraction = ''] = clean.split('.');
  return { digits: BigInt(whole + fraction), scale: fraction.length };
}

/** Cents from "$1,234.56" or "-$10.00". */
function cents(text: string): number {
  const match = /^(-?)\$([\d,]+\.\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`not an amount: ${text}`);
  return (match[1] ? -1 : 1) * Number(decimal(match[2] ?? '').digits);
}

/** quantity × dollars per unit, in cents, rounded half up (away from zero), from their decimal texts. */
function billedCents(quantity: string, dollarsPerUnit: string): number {
  const q = decimal(quantity);
  const p = decimal(dollarsPerUnit);
  const product = q.digits * p.digits * 100n; // in cents, scaled by 10^(q.scale + p.scale)
  const scale = 10n ** BigInt(q.scale + p.scale);
  const magnitude = product < 0n ? -product : product;
  const rounded = (2n * magnitude + scale) / (2n * scale);
  return Number(product < 0n ? -rounded : rounded);
}

/** What the API says an invoice should show as reconcilable usage lines: usage-based at one price. */
function checkableLines(lines: ApiLine[]): ApiLine[] {
  return lines.filter(
    (line) => line.usage_based && line.unit_price !== null && line.unit_price !== 0,
  );
}

async function apiJson<T>(page: Page, path: string): Promise<T> {
  const response = await page.request.get(path);
  expect(response.status(), path).toBe(200);
  return (await response.json()) as T;
}

/** Opens every collapsed row of the upcoming invoice (groups, then their lines' projects). */
async function expandAll(table: Locator): Promise<void> {
  for (let round = 0; round < 5; round++) {
    const collapsed = table.locator('button[aria-expanded="false"]');
    const count = await collapsed.count();
    if (count === 0) return;
    for (let index = 0; index < count; index++) {
      const button = collapsed.first();
      if (await button.isVisible()) await button.click();
    }
  }
}

interface ShownLine {
  name: string;
  billed: string;
  price: string;
  amount: string;
}

/** The usage lines of the upcoming invoice as shown: a quantity, a "$x per unit" price and an amount. */
async function shownUsageLines(table: Locator): Promise<ShownLine[]> {
  const rows = await table
    .locator('tbody tr:visible')
    .evaluateAll((trs) =>
      trs.map((tr) =>
        Array.from(tr.querySelectorAll('td')).map((td) => (td as HTMLElement).innerText.trim()),
      ),
    );
  const lines: ShownLine[] = [];
  for (const cells of rows) {
    const [name = '', quantity = '', price = '', amount = ''] = cells;
    const billed = /^([\d,.]+) \S+/.exec(quantity)?.[1];
    const perUnit = /^\$([\d,.]+) per /.exec(price)?.[1];
    if (billed === undefined || perUnit === undefined) continue;
    lines.push({ name: name.split('\n')[0] ?? name, billed, price: perUnit, amount });
  }
  return lines;
}

/** The usage lines of an invoice PDF's text laid out as printed: quantity, unit price, amount in a row. */
function pdfUsageLines(text: string): ShownLine[] {
  const row =
    /^\s*(\S.*?)\s{2,}([\d,.]+) [A-Za-z/-]+\s{2,}\$([\d,.]+) per [^$]+?\s{2,}(-?\$[\d,.]+)\s*$/;
  return text.split('\n').flatMap((line) => {
    const match = row.exec(line);
    if (!match) return [];
    const [, name = '', billed = '', price = '', amount = ''] = match;
    return [{ name, billed, price, amount }];
  });
}

async function organizationsOf(page: Page): Promise<string[]> {
  const organizations = await apiJson<{ slug: string }[]>(page, '/platform/organizations');
  return organizations.map((organization) => organization.slug);
}

describe('every usage line reconciles by hand, in every demo organization', () => {
  test('the upcoming invoice on the billing page: billable × unit price = amount', async () => {
    let checked = 0;
    for (const user of ['owner@example.com', 'outsider@example.com']) {
      const page = await harness().sessionPage(user);
      const slugs = await organizationsOf(page);
      for (const slug of slugs) {
        const upcoming = await page.request.get(
          `/platform/organizations/${slug}/billing/invoices/upcoming`,
        );
        if (upcoming.status() !== 200) continue;
        const expected = checkableLines(((await upcoming.json()) as { lines: ApiLine[] }).lines);
        await gotoBilling(page, slug);
        const table = billingSection(page, 'breakdown').getByRole('table', {
          name: 'Upcoming invoice lines',
        });
        if (expected.length === 0 && (await table.count()) === 0) continue;
        await table.waitFor();
        await expandAll(table);
        const shown = await shownUsageLines(table);
        // Grouped on screen (compute, replicas, branches), so compared as sets of names.
        expect(shown.map((line) => line.name).sort(), slug).toEqual(
          expected.map((line) => line.description).sort(),
        );
        for (const line of shown) {
          expect(billedCents(line.billed, line.price), `${slug}: ${line.name}`).toBe(
            cents(line.amount),
          );
          checked++;
        }
      }
    }
    // acme-pro, acme-team, payg-co and the other paid organizations have compute, add-ons, overage.
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  test('every invoice PDF: billable × unit price = amount on each usage line', async () => {
    let checked = 0;
    let pdfs = 0;
    for (const user of ['owner@example.com', 'outsider@example.com']) {
      const page = await harness().sessionPage(user);
      for (const slug of await organizationsOf(page)) {
        const list = await page.request.get(
          `/platform/organizations/${slug}/billing/invoices?offset=0&limit=100`,
        );
        if (list.status() !== 200) continue;
        for (const invoice of (await list.json()) as ApiInvoice[]) {
          const detail = await apiJson<{ lines: ApiLine[] }>(
            page,
            `/platform/organizations/${slug}/billing/invoices/${invoice.id}`,
          );
          const pdf = await page.request.get(invoice.invoice_pdf);
          expect(pdf.status()).toBe(200);
          if (SHOTS) {
            mkdirSync(SHOTS, { recursive: true });
            writeFileSync(join(SHOTS, `${slug}-${invoice.number}.pdf`), await pdf.body());
          }
          const text = await pdfLayoutText(await pdf.body());
          const shown = pdfUsageLines(text);
          expect(
            shown.map((line) => line.name),
            `${slug} ${invoice.number}`,
          ).toEqual(checkableLines(detail.lines).map((line) => line.description));
          for (const line of shown) {
            expect(billedCents(line.billed, line.price), `${invoice.number}: ${line.name}`).toBe(
              cents(line.amount),
            );
            checked++;
          }
          pdfs++;
        }
      }
    }
    expect(pdfs).toBeGreaterThan(15);
    expect(checked).toBeGreaterThan(50);
  });
});

describe('the screens that show the lines', () => {
  test('payg-co: overage states used, included and billed; project rows their share; no axe violations', async () => {
    for (const [width, colorScheme] of [
      [1280, 'light'],
      [1280, 'dark'],
      [375, 'light'],
    ] as const) {
      const page = await harness().sessionPage('owner@example.com', { width, colorScheme });
      await gotoBilling(page, 'payg-co', '#breakdown');
      const table = billingSection(page, 'breakdown').getByRole('table', {
        name: 'Upcoming invoice lines',
      });
      await table.waitFor();
      await expandAll(table);
      const egress = table.getByRole('row', { name: /^Egress/ });
      await expect
        .poll(() => egress.innerText())
        .toMatch(
          /[\d,.]+ GB used · 250 GB included · [\d,.]+ GB billed × \$0\.09 per GB|[\d,.]+ GB billed\s+[\d,.]+ GB used − 250 GB included/,
        );
      // Egress splits between both projects, in proportion to their usage.
      const project = table
        .getByRole('row', { name: /^PAYG Co Project 1/ })
        .filter({ hasText: 'GB' })
        .first();
      expect(await project.innerText()).toMatch(/[\d,.]+ GB[\s·]+[\d.]+% of \$[\d.]+/);
      expect(await seriousAxeViolations(page)).toEqual([]);
      if (SHOTS) {
        mkdirSync(SHOTS, { recursive: true });
        await billingSection(page, 'breakdown').screenshot({
          path: join(SHOTS, `payg-co-${width}-${colorScheme}.png`),
        });
      }
    }
  });

  test('the pay page lists the invoice lines, each usage line reconciling, without axe violations', async () => {
    for (const [width, colorScheme] of [
      [1280, 'light'],
      [1280, 'dark'],
      [375, 'light'],
    ] as const) {
      const page = await harness().sessionPage('owner@example.com', { width, colorScheme });
      const invoices = await apiJson<ApiInvoice[]>(
        page,
        '/platform/organizations/acme-pro/billing/invoices?offset=0&limit=100',
      );
      const open = invoices.find((invoice) => invoice.status === 'open');
      if (!open) throw new Error('acme-pro has an open invoice');
      await page.goto(`/pay/invoices/${open.id}?org=acme-pro`);
      const table = page.getByRole('table', { name: 'Invoice lines' });
      await table.waitFor();
      const rows = await table
        .locator('tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) =>
            Array.from(tr.querySelectorAll('td')).map((td) => (td as HTMLElement).innerText.trim()),
          ),
        );
      let checked = 0;
      for (const [item = '', amount = ''] of rows) {
        const match = /([\d,.]+) [A-Za-z/-]+(?: billed)? × \$([\d,.]+) per /.exec(item);
        if (!match) continue;
        expect(billedCents(match[1] ?? '', match[2] ?? ''), item).toBe(cents(amount));
        checked++;
      }
      expect(checked).toBeGreaterThan(3);
      await page.getByRole('button', { name: 'Pay' }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      if (SHOTS) {
        await page.screenshot({
          path: join(SHOTS, `pay-${width}-${colorScheme}.png`),
          fullPage: true,
        });
      }
    }
  });
});
