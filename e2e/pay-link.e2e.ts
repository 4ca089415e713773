import { describe, expect, test } from 'vitest';
import { payLinkKey, payLinkSecret } from '../api/src/repositories/pay-links.ts';
import { dollars, shot, useHarness, waitForNotFound } from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';
import { fillCard, TEST_CARDS } from './support/payments.ts';

// Issue 13, item 5, in real Chromium against the real product: the invoice's signed payment link (the
// billing emails' Pay Now link) lets a visitor with no session pay with a new card, and nothing more;
// a signed-in member who may pay is offered the saved cards on the same link.

const harness = useHarness();

interface OpenInvoice {
  id: string;
  number: string;
  amount_due: number;
  link: string;
}

/** The organization's open invoice and its signed link, as the billing emails carry it. */
async function openInvoiceLink(slug: string): Promise<OpenInvoice> {
  const { db } = harness().server.database;
  const invoice = await db
    .selectFrom('invoices')
    .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
    .select(['invoices.id', 'invoices.number', 'invoices.amount_due_cents'])
    .where('organizations.slug', '=', slug)
    .where('invoices.status', '=', 'open')
    .executeTakeFirstOrThrow();
  const key = payLinkKey(await payLinkSecret(db), invoice.id);
  return {
    id: invoice.id,
    number: invoice.number,
    amount_due: invoice.amount_due_cents,
    link: `/pay/invoices/${invoice.id}?org=${slug}&key=${key}`,
  };
}

describe("an invoice's payment link", () => {
  test('a visitor with the link alone pays restricted-co with a new card; the restriction is lifted', async () => {
    const invoice = await openInvoiceLink('restricted-co');
    const page = await harness().newPage();
    await page.goto(invoice.link);
    await page.getByRole('heading', { name: `Invoice ${invoice.number}` }).waitFor();
    await page.getByText('Restricted Co', { exact: true }).waitFor();
    await page.getByText(dollars(invoice.amount_due), { exact: true }).first().waitFor();
    expect(await page.title()).toBe('Pay invoice · Restricted Co · Meterline');

    // The new-card form alone: no saved card, no "New card" choice, no way into the console.
    await page.getByRole('group', { name: 'Pay with card' }).waitFor();
    expect(await page.getByRole('radio').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Back to billing' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'pay-link-visitor-light', { fullPage: true });

    await fillCard(page.locator('main'), TEST_CARDS.visa);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Invoice ${invoice.number} is paid` })
      .getByText(`${dollars(invoice.amount_due)} was charged to your card. Thank you.`)
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'pay-link-visitor-paid', { fullPage: true });

    // The owner sees it paid and the restriction gone.
    const owner = await harness().sessionPage('owner@example.com');
    const organization = (await (
      await owner.request.get('/platform/organizations/restricted-co')
    ).json()) as { restriction_status: string | null };
    expect(organization.restriction_status).toBeNull();
    const invoices = (await (
      await owner.request.get('/platform/organizations/restricted-co/billing/invoices')
    ).json()) as { id: string; status: string }[];
    expect(invoices.find((row) => row.id === invoice.id)?.status).toBe('paid');

    // The link, opened again, says there is nothing left to pay.
    await page.reload();
    await page.getByText('This invoice is paid', { exact: true }).waitFor();
  });

  test('a read-only member gets the new-card form; an owner on the same link gets the saved cards', async () => {
    const invoice = await openInvoiceLink('acme-pro');
    const readonly = await harness().sessionPage('readonly@example.com', {
      colorScheme: 'dark',
      width: 375,
      height: 812,
    });
    await readonly.goto(invoice.link);
    await readonly.getByRole('group', { name: 'Pay with card' }).waitFor();
    expect(await readonly.getByRole('radio').count()).toBe(0);
    expect(await seriousAxeViolations(readonly)).toEqual([]);
    await shot(readonly, 'pay-link-readonly-dark-375', { fullPage: true });

    const owner = await harness().sessionPage('owner@example.com');
    await owner.goto(invoice.link);
    const visa = owner.getByRole('radio', { name: /^Visa ending in 4242/ });
    await visa.waitFor();
    expect(await visa.isChecked()).toBe(true);
  });

  test('a link whose key was altered is not found', async () => {
    const invoice = await openInvoiceLink('acme-pro');
    const page = await harness().newPage();
    await page.goto(invoice.link.replace(/key=.{4}/, 'key=AAAA'));
    await waitForNotFound(page);
  });
});
