import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  apiInvoices,
  billingSection,
  dollars,
  gotoBilling,
  shot,
  useHarness,
  type ApiInvoice,
} from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';
import {
  apiPaymentMethods,
  DECLINED_MESSAGE,
  fillCard,
  TEST_CARDS,
  toastWith,
} from './support/payments.ts';

// Issue 13, items 4 and 5, in real Chromium against the real product: restricted-co's overdue
// restriction leads to paying its invoice (not to the spend cap), its declining card says so, and
// the hosted invoice page offers the organization's saved cards.

async function openInvoiceOf(page: Page, slug: string): Promise<ApiInvoice> {
  const invoice = (await apiInvoices(page, slug)).find((i) => i.status === 'open');
  if (!invoice) throw new Error(`${slug} has no open invoice`);
  return invoice;
}

function banner(page: Page) {
  return page.getByRole('region', { name: 'Usage limits' });
}

describe("restricted-co's overdue invoice", () => {
  const harness = useHarness();

  test('the banner asks to pay the invoice and replace the card; the card row says it declined', async () => {
    for (const [name, options] of [
      ['restricted-banner', {}],
      ['restricted-banner-dark', { colorScheme: 'dark' as const }],
      ['restricted-banner-375', { width: 375, height: 800 }],
    ] as const) {
      const page = await harness().sessionPage('owner@example.com', options);
      await gotoBilling(page, 'restricted-co');
      await banner(page).getByRole('button', { name: 'Pay outstanding invoice' }).waitFor();
      expect(
        await banner(page)
          .getByRole('link', { name: /spend cap/i })
          .count(),
      ).toBe(0);
      const declined = billingSection(page, 'payment-methods').getByText(
        /^Last charge declined on [A-Z][a-z]{2} \d{2}, \d{4}$/,
      );
      await declined.waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, name);
      await billingSection(page, 'payment-methods').scrollIntoViewIfNeeded();
      await shot(page, `${name}-card`);
    }

    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'restricted-co');
    await banner(page).getByRole('link', { name: 'Replace card' }).click();
    await page.waitForURL((url) => url.hash === '#payment-methods');
    await billingSection(page, 'payment-methods')
      .getByRole('button', { name: 'Add new card' })
      .waitFor();
  });

  test('"Pay outstanding invoice" leads to Pay Now; a new 4242 pays it and lifts the restriction', async () => {
    const page = await harness().sessionPage('owner@example.com');
    expect((await page.request.get('/platform/projects/restrictedco1')).status()).toBe(402);
    const invoice = await openInvoiceOf(page, 'restricted-co');
    const cardsBefore = await apiPaymentMethods(page, 'restricted-co');
    await gotoBilling(page, 'restricted-co');
    await banner(page).getByRole('button', { name: 'Pay outstanding invoice' }).click();
    await page.waitForURL(
      (url) =>
        url.pathname === `/pay/invoices/${invoice.id}` &&
        url.searchParams.get('org') === 'restricted-co',
    );
    await page.getByText(dollars(invoice.amount_due), { exact: true }).first().waitFor();

    // The declining default card is offered, marked, and not chosen: a new card is.
    const group = page.getByRole('group', { name: 'Pay with' });
    const saved = group.getByRole('radio', { name: /ending in 0002/ });
    await saved.waitFor();
    expect(await saved.isChecked()).toBe(false);
    expect(await group.getByRole('radio', { name: 'New card' }).isChecked()).toBe(true);
    await group.getByText(/^Last charge declined on/).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'pay-restricted-co');

    // The saved card declines as a typed one does.
    await saved.check();
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Payment failed' })
      .getByText(DECLINED_MESSAGE, { exact: true })
      .waitFor();

    await group.getByRole('radio', { name: 'New card' }).check();
    await fillCard(page.locator('main'), TEST_CARDS.visa);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/org/restricted-co/billing');
    await toastWith(page, `Successfully paid invoice ${invoice.number}`).waitFor();
    await banner(page).waitFor({ state: 'detached' });

    // The API agrees: paid, restriction lifted, projects answer; the typed card was not saved.
    const paid = (await apiInvoices(page, 'restricted-co')).find((i) => i.id === invoice.id);
    expect(paid?.status).toBe('paid');
    const organization = (await (
      await page.request.get('/platform/organizations/restricted-co')
    ).json()) as { restriction_status: string | null };
    expect(organization.restriction_status).toBeNull();
    expect((await page.request.get('/platform/projects/restrictedco1')).status()).toBe(200);
    expect((await apiPaymentMethods(page, 'restricted-co')).data).toHaveLength(
      cardsBefore.data.length,
    );
  });
});

describe('Pay Now with a saved card', () => {
  const harness = useHarness();

  test("acme-pro's open invoice is paid with the saved Visa 4242 in two clicks", async () => {
    const page = await harness().sessionPage('owner@example.com');
    const invoice = await openInvoiceOf(page, 'acme-pro');
    const { defaultPaymentMethodId } = await apiPaymentMethods(page, 'acme-pro');
    await gotoBilling(page, 'acme-pro');
    const row = billingSection(page, 'invoices')
      .getByRole('row')
      .filter({ hasText: invoice.number });
    const payments: { body: unknown }[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith(`/invoices/${invoice.id}/pay`)) {
        payments.push({ body: request.postDataJSON() });
      }
    });

    // The payment page's invoice is held back a moment, to see what shows while
    // it loads: the redirect announced (spec §4) over the page's shape, never a blank page.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**/billing/invoices/${invoice.id}`, async (route) => {
      await held;
      await route.continue();
    });

    // Click 1: Pay Now on the invoice's row.
    await row.getByRole('button', { name: 'Pay Now' }).click();
    await page.waitForURL((url) => url.pathname === `/pay/invoices/${invoice.id}`);
    await toastWith(page, 'Redirecting to payment gateway...').waitFor();
    await page.getByRole('status').filter({ hasText: 'Loading invoice' }).waitFor();
    await page.getByRole('link', { name: 'Back to billing' }).waitFor();
    release();
    await toastWith(page, 'Redirecting to payment gateway...').waitFor({ state: 'detached' });
    const visa = page.getByRole('radio', { name: /^Visa ending in 4242/ });
    await visa.waitFor();
    expect(await visa.isChecked()).toBe(true);
    expect(await page.getByLabel('Card number', { exact: true }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'pay-acme-pro-saved');
    // Click 2: Pay.
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/org/acme-pro/billing');
    await toastWith(page, `Successfully paid invoice ${invoice.number}`).waitFor();
    await row.getByText('Paid', { exact: true }).waitFor();

    expect(payments).toEqual([{ body: { payment_method_id: defaultPaymentMethodId } }]);
    const paid = (await apiInvoices(page, 'acme-pro')).find((i) => i.id === invoice.id);
    expect(paid?.status).toBe('paid');
    const charge = await harness()
      .server.database.db.selectFrom('charges')
      .select(['status', 'payment_method_id'])
      .where('invoice_id', '=', invoice.id)
      .where('idempotency_key', 'like', '%:pay:%')
      .execute();
    expect(charge).toEqual([{ status: 'succeeded', payment_method_id: defaultPaymentMethodId }]);
  });

  test('the pay page in dark and at 375 px, saved cards and a new card', async () => {
    const db = harness().server.database.db;
    // acme-team's invoices are paid in the demo world: one is reopened to be payable.
    const invoice = await db
      .selectFrom('invoices')
      .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
      .select('invoices.id')
      .where('organizations.slug', '=', 'acme-team')
      .where('invoices.amount_due_cents', '>', 0)
      .orderBy('invoices.sequence', 'desc')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('invoices')
      .set({ status: 'open', paid_at: null, amount_paid_cents: 0 })
      .where('id', '=', invoice.id)
      .execute();
    for (const [name, options] of [
      ['pay-saved-dark', { colorScheme: 'dark' as const }],
      ['pay-saved-375', { width: 375, height: 800 }],
    ] as const) {
      const page = await harness().sessionPage('owner@example.com', options);
      await page.goto(`/pay/invoices/${invoice.id}?org=acme-team`);
      await page.getByRole('radio', { name: 'New card' }).check();
      await page.getByLabel('Card number', { exact: true }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await shot(page, name);
    }
  });

  test('signed out, the link alone shows no saved card: the page asks to sign in, the API refuses', async () => {
    const invoice = await harness()
      .server.database.db.selectFrom('invoices')
      .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
      .select('invoices.id')
      .where('organizations.slug', '=', 'acme-team')
      .executeTakeFirstOrThrow();
    const owner = await harness().sessionPage('owner@example.com');
    const { defaultPaymentMethodId } = await apiPaymentMethods(owner, 'acme-team');

    const visitor = await harness().newPage();
    await visitor.goto(`/pay/invoices/${invoice.id}?org=acme-team`);
    await visitor.waitForURL((url) => url.pathname === '/sign-in');
    expect(await visitor.getByRole('radio').count()).toBe(0);
    expect(await visitor.getByText(/ending in/).count()).toBe(0);
    const cards = await visitor.request.get('/platform/organizations/acme-team/payments');
    expect(cards.status()).toBe(401);
    const pay = await visitor.request.post(
      `/platform/organizations/acme-team/billing/invoices/${invoice.id}/pay`,
      { data: { payment_method_id: defaultPaymentMethodId } },
    );
    expect(pay.status()).toBe(401);
  });
});
