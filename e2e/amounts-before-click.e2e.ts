import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  apiInvoices,
  billingSection,
  dollars,
  gotoBilling,
  shot,
  useHarness,
} from './support/billing.ts';
import { ACTION_TIMEOUT_MS, seriousAxeViolations } from './support/harness.ts';
import { CARD_ADDED, fillCard, TEST_CARDS, toastWith } from './support/payments.ts';

// Every money decision shows its amount before the click, and the amount shown
// is the amount charged, to the cent; in real Chromium against the real product, axe on each screen.

const harness = useHarness();

/** "-$14.76" or "$25.00" as cents. */
function cents(shown: string): number {
  const negative = shown.trim().startsWith('-');
  return (negative ? -1 : 1) * Number(shown.replace(/[^0-9]/g, ''));
}

/** The amount of a table's row whose header starts with `label`. */
async function rowAmount(table: Locator, label: string): Promise<number> {
  const row = table
    .getByRole('row')
    .filter({ has: table.page().getByRole('rowheader', { name: new RegExp(`^${label}`) }) });
  return cents(await row.getByRole('cell').last().innerText());
}

function changePlanLink(page: Page): Locator {
  return billingSection(page, 'subscription').getByRole('link', {
    name: 'Change subscription plan',
  });
}

describe('amounts before the click', () => {
  test('acme-free → Pro: the charge today is beside the card form before a card is added, and is what is charged', async () => {
    const page = await harness().sessionPage('owner@example.com');
    expect(await apiInvoices(page, 'acme-free')).toEqual([]);
    await gotoBilling(page, 'acme-free');
    await changePlanLink(page).click();
    await page
      .getByRole('dialog', { name: 'Change subscription plan' })
      .getByRole('button', { name: 'Upgrade to Pro' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Upgrade to Pro' });
    await dialog.getByLabel('Card number', { exact: true }).waitFor();
    // Before any card: the price, the monthly estimate and what Pro adds, beside the card form.
    const summary = dialog.getByRole('complementary', {
      name: 'Upgrade to Pro: what it costs and adds',
    });
    const before = await rowAmount(
      summary.getByRole('table', { name: 'Charge today' }),
      'Charge today',
    );
    expect(before).toBe(2500);
    await summary.getByRole('heading', { name: 'Monthly invoice estimate' }).waitFor();
    await summary.getByRole('heading', { name: 'What the Pro plan adds' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'upgrade-no-card');

    // No address on file and none typed: the card is saved without one.
    await fillCard(dialog, TEST_CARDS.visa);
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await dialog.getByRole('radio', { name: /Visa ending in 4242/ }).waitFor();
    await dialog.getByRole('button', { name: 'Confirm upgrade' }).click();
    await toastWith(page, 'Successfully upgraded subscription to Pro!').waitFor({
      timeout: ACTION_TIMEOUT_MS,
    });
    const invoices = await apiInvoices(page, 'acme-free');
    expect(invoices.map((invoice) => [invoice.status, invoice.amount_due])).toEqual([
      ['paid', before],
    ]);
  });

  test('payg-co turns the spend cap on: the amount and the card shown before Confirm are what is charged', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const invoicesBefore = await apiInvoices(page, 'payg-co');
    await gotoBilling(page, 'payg-co');
    await billingSection(page, 'cost-control')
      .getByRole('link', { name: 'Change spend cap' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Spend cap' });
    await dialog.getByText('Spend cap on', { exact: true }).click();
    const charge = dialog.getByRole('region', { name: 'Charged now' });
    const shown = cents(await charge.getByTestId('spend-cap-charge-today').innerText());
    expect(shown).toBeGreaterThan(0);
    await charge.getByText(/to your default card, Visa ending 4242/).waitFor();
    // The lines add up to what is charged (no credit on payg-co).
    const lines = charge.getByRole('table').locator('tbody td');
    const sum = (await lines.allInnerTexts()).reduce((total, text) => total + cents(text), 0);
    expect(sum).toBe(shown);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'spend-cap-on-charge');

    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Successfully enabled spend cap').waitFor({ timeout: ACTION_TIMEOUT_MS });
    const invoices = await apiInvoices(page, 'payg-co');
    expect(invoices).toHaveLength(invoicesBefore.length + 1);
    expect(invoices[0]).toMatchObject({ status: 'paid', amount_due: shown });
    await billingSection(page, 'invoices')
      .getByRole('row')
      .filter({ hasText: dollars(shown) })
      .first()
      .waitFor();
  });

  test('acme-pro: the credit is said to be held, the upcoming invoice shows what it covers, Pay Now says why it is charged in full', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    const credits = billingSection(page, 'credits-balance');
    await credits.getByText('-$50.00', { exact: true }).waitFor();
    await credits.getByText('Credit your organization holds', { exact: true }).waitFor();
    const upcoming = billingSection(page, 'breakdown');
    const table = upcoming.getByRole('table', { name: 'Upcoming invoice lines' });
    await table.getByRole('rowheader', { name: /^Credit applied/ }).waitFor();
    const projected = await rowAmount(table, 'Projected total');
    const applied = await rowAmount(table, 'Credit applied');
    const expected = await rowAmount(table, 'Expected charge');
    expect(applied).toBe(-Math.min(5000, projected));
    expect(expected).toBe(projected + applied);
    expect(await seriousAxeViolations(page)).toEqual([]);

    const open = (await apiInvoices(page, 'acme-pro')).find(
      (invoice) => invoice.status === 'open' && invoice.amount_due > 0,
    );
    if (!open) throw new Error('acme-pro has an open invoice');
    await page.goto(`/pay/invoices/${open.id}?org=acme-pro`);
    await page.getByText('This invoice is charged in full', { exact: true }).waitFor();
    await page.getByText(/Credits apply to future invoices only/).waitFor();
    await page.getByRole('button', { name: 'Pay', exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('limits-co adds a card without typing a billing name or address', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'limits-co');
    await billingSection(page, 'payment-methods')
      .getByRole('button', { name: 'Add new card' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Add new card' });
    await dialog.getByLabel('Card number', { exact: true }).waitFor();
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe('');
    await fillCard(dialog, TEST_CARDS.visa);
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await toastWith(page, CARD_ADDED).waitFor({ timeout: ACTION_TIMEOUT_MS });
    await dialog.waitFor({ state: 'detached' });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('acme-team → Pro: each line names its period; the cycle restarts and the spend cap will be off', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-team');
    await changePlanLink(page).click();
    await page
      .getByRole('dialog', { name: 'Change subscription plan' })
      .getByRole('button', { name: 'Downgrade to Pro' })
      .click();
    const dialog = page.getByRole('dialog', { name: 'Downgrade to the Pro plan' });
    const settled = dialog.getByRole('table', { name: "The change invoice's lines" });
    // "MMM DD, YYYY – MMM DD, YYYY" under each line (spec §9's invoice dates).
    const period = /[A-Z][a-z]{2} \d{1,2}, \d{4} – [A-Z][a-z]{2} \d{1,2}, \d{4}/;
    await settled.locator('tbody th').first().waitFor();
    const headers = await settled.locator('tbody th').allInnerTexts();
    expect(headers.length).toBeGreaterThan(0);
    for (const header of headers) expect(header).toMatch(period);
    await dialog.getByText('Your billing cycle restarts today', { exact: true }).waitFor();
    await dialog.getByText(/The spend cap will be off/).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'team-to-pro-preview');
  });
});
