import type { Locator, Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  apiResponse,
  billingSection,
  dollars,
  eventually,
  gotoBilling,
  shot,
  useHarness,
} from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';
import {
  apiCustomerBalance,
  apiPaymentMethods,
  challengeDialog,
  DECLINED_MESSAGE,
  fillCard,
  TEST_CARDS,
  toastWith,
} from './support/payments.ts';

// Issue 11's upgrades, in the browser against the real product: acme-free to Pro with a card added
// in the upgrade dialog, acme-pro to Team through 3-D Secure (failed, then completed), a declined
// card, and the plan buttons that cannot be used, with their reasons. Each describe that changes a
// plan has a harness (and so a database) of its own.

// The spec's texts (§8, §5, §6), typed out independently of the implementation.
const CONFIRM_FAILED = 'Could not confirm payment. Please try again or use a different card.';
const SURVEY_REASON_REQUIRED = 'Please select at least one reason for upgrading your subscription.';
const NO_PERMISSION = 'You do not have permission to change the subscription plan';
const upgraded = (plan: string) => `Successfully upgraded subscription to ${plan}!`;
const unableToUpdate = (message: string) => `Unable to update subscription: ${message}`;
// Our words for the other reasons (domain plan-change rules), typed out likewise.
const ENTERPRISE_REASON =
  'Enterprise plans are changed with your account team. Contact them to make a change.';
const AWS_REASON =
  'This organization is billed through AWS Marketplace: its plan is changed there.';
const ORIOLE_REASON =
  'This organization has an OrioleDB project, which cannot change plan yet. Remove the OrioleDB project first.';

interface ApiSubscription {
  plan: { id: string };
  customer_balance: number;
}

interface ApiInvoice {
  id: string;
  number: string;
  status: string;
  amount_due: number;
}

async function apiSubscription(page: Page, slug: string): Promise<ApiSubscription> {
  const response = await page.request.get(`/platform/organizations/${slug}/billing/subscription`);
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiSubscription;
}

async function apiInvoices(page: Page, slug: string): Promise<ApiInvoice[]> {
  const response = await page.request.get(
    `/platform/organizations/${slug}/billing/invoices?offset=0&limit=50`,
  );
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiInvoice[];
}

/** Every request the page sends to this API path and method. */
function recordRequests(page: Page, pathname: string, method: string): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname === pathname) {
      requests.push(request);
    }
  });
  return requests;
}

function changePlanLink(page: Page): Locator {
  return billingSection(page, 'subscription').getByRole('link', {
    name: 'Change subscription plan',
  });
}

/** Opens the plan panel the way a person does: the subscription section's link. */
async function openPlanPanel(page: Page, slug: string): Promise<Locator> {
  await gotoBilling(page, slug);
  await changePlanLink(page).click();
  const panel = page.getByRole('dialog', { name: 'Change subscription plan' });
  await panel.getByRole('article').first().waitFor();
  return panel;
}

/** "Upgrade to {plan}" in the panel; answers the upgrade dialog once it shows the charge. */
async function openUpgrade(page: Page, slug: string, plan: string): Promise<Locator> {
  const panel = await openPlanPanel(page, slug);
  await panel.getByRole('button', { name: `Upgrade to ${plan}` }).click();
  return page.getByRole('dialog', { name: `Upgrade to ${plan}` });
}

function chargeTable(dialog: Locator): Locator {
  return dialog.getByRole('table', { name: 'Charge today' });
}

/** "-$14.76" or "$25.00" as cents. */
function cents(shown: string): number {
  const negative = shown.trim().startsWith('-');
  const digits = shown.replace(/[^0-9]/g, '');
  return (negative ? -1 : 1) * Number(digits);
}

interface ShownCharge {
  lines: { label: string; cents: number }[];
  total: number;
  credit: number;
  charge: number;
}

/**
 * What the charge table shows, checked by hand: the lines add up to the total, the total less the
 * credit applied is the charge today.
 */
async function shownCharge(dialog: Locator): Promise<ShownCharge> {
  const table = chargeTable(dialog);
  await table.waitFor();
  const read = async (row: Locator) => ({
    label: (await row.getByRole('rowheader').innerText()).split('\n')[0] ?? '',
    cents: cents(await row.getByRole('cell').innerText()),
  });
  // Rows with an amount: the usage group's heading row has none.
  const bodyRows = table.locator('tbody tr:has(td)');
  const lines = await Promise.all(
    Array.from({ length: await bodyRows.count() }, (_, index) => read(bodyRows.nth(index))),
  );
  const footer = new Map<string, number>();
  const footRows = table.locator('tfoot tr');
  for (let index = 0; index < (await footRows.count()); index += 1) {
    const row = await read(footRows.nth(index));
    footer.set(row.label, row.cents);
  }
  const sum = lines.reduce((total, line) => total + line.cents, 0);
  const charge = footer.get('Charge today');
  if (charge === undefined) throw new Error('no "Charge today" row');
  const total = footer.get('Total') ?? sum;
  const credit = -(footer.get('Credit applied') ?? 0);
  expect(total, 'the lines add up to the total').toBe(sum);
  expect(charge, 'the total less the credit is the charge').toBe(Math.max(0, total - credit));
  return { lines, total, credit, charge };
}

/** The invoice row at the top of Past Invoices. */
function topInvoiceRow(page: Page): Locator {
  return billingSection(page, 'invoices').locator('tbody tr').first();
}

async function expectFocusOn(page: Page, target: Locator): Promise<void> {
  await eventually(() => target.evaluate((element) => element === document.activeElement)).toBe(
    true,
  );
}

describe('acme-free upgrades to Pro with a 3-D Secure card added in the dialog', () => {
  const harness = useHarness();

  test('the bank asks once, when the card is saved; the charge is $25.00, the upgrade pays it, and the survey asks why', async () => {
    const page = await harness().sessionPage('owner@example.com');
    expect(await apiInvoices(page, 'acme-free')).toEqual([]);
    expect((await apiPaymentMethods(page, 'acme-free')).data).toEqual([]);
    const changes = recordRequests(
      page,
      '/platform/organizations/acme-free/billing/subscription',
      'PUT',
    );
    const feedback = recordRequests(page, '/platform/feedback/upgrade', 'POST');

    const panel = await openPlanPanel(page, 'acme-free');
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The panel closes on Escape and gives focus back to its link.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await expectFocusOn(page, changePlanLink(page));

    const dialog = await openUpgrade(page, 'acme-free', 'Pro');
    // Without a card, the dialog starts on the card form.
    await dialog.getByLabel('Card number', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await fillCard(dialog, TEST_CARDS.authenticate);
    await dialog.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
    await dialog.getByLabel('Address line 1', { exact: true }).fill('1 Main Street');
    await dialog.getByLabel('City', { exact: true }).fill('Springfield');
    await dialog.getByLabel('Postal code', { exact: true }).fill('12345');
    await dialog.getByLabel('Country', { exact: true }).selectOption('US');
    await dialog.getByRole('button', { name: 'Save card' }).click();
    // 4000 0025 0000 3155: the bank asks when the card is saved, and not again for the payment below.
    await challengeDialog(page).getByRole('button', { name: 'Complete authentication' }).click();
    await challengeDialog(page).waitFor({ state: 'detached' });

    // The new card is chosen, and the charge today is the Pro plan's $25.00.
    const card = dialog.getByRole('radio', { name: /Visa ending in 3155/ });
    await card.waitFor();
    expect(await card.isChecked()).toBe(true);
    const charge = await shownCharge(dialog);
    expect(charge.lines.map((line) => [line.label, dollars(line.cents)])).toEqual([
      ['Pro plan', '$25.00'],
    ]);
    expect(charge.charge).toBe(2500);
    // The monthly estimate too: the plan's $25.00 and what the projects add make the month.
    const monthly = dialog.getByRole('table', { name: 'Monthly invoice estimate' });
    const monthlyLines = await monthly.locator('tbody td').allInnerTexts();
    expect(await monthly.locator('tbody th').first().innerText()).toBe('Pro plan');
    expect(monthlyLines[0]).toBe('$25.00');
    const perMonth = cents(await monthly.locator('tfoot td').innerText());
    expect(perMonth).toBe(monthlyLines.reduce((sum, shown) => sum + cents(shown), 0));
    expect(await seriousAxeViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Confirm upgrade' }).click();
    // Applied without a second challenge: had the bank asked again, no toast would come.
    await toastWith(page, upgraded('Pro')).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(changes).toHaveLength(1);
    expect(await challengeDialog(page).count()).toBe(0);

    // The upgrade survey demands a reason, then sends it.
    const survey = page.getByRole('dialog', { name: 'Welcome to the Pro plan' });
    await survey.waitFor();
    await survey.getByRole('button', { name: 'Submit feedback' }).click();
    await survey.getByText(SURVEY_REASON_REQUIRED, { exact: true }).waitFor();
    expect(feedback).toHaveLength(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await survey.getByRole('checkbox', { name: 'Need more compute' }).check();
    await survey
      .getByRole('textbox', { name: 'Anything else you would like to tell us?' })
      .fill('  More projects  ');
    await survey.getByRole('button', { name: 'Submit feedback' }).click();
    await survey.waitFor({ state: 'detached' });
    expect(feedback.map((request) => request.postDataJSON() as unknown)).toEqual([
      {
        orgSlug: 'acme-free',
        prevPlan: 'free',
        currentPlan: 'pro',
        reasons: ['Need more compute'],
        additionalFeedback: 'More projects',
      },
    ]);
    // The panel and the dialogs are gone: focus is back on the link that opened them.
    await expectFocusOn(page, changePlanLink(page));

    // Pro, and a paid $25.00 invoice at the top of Past Invoices.
    expect((await apiSubscription(page, 'acme-free')).plan.id).toBe('pro');
    const invoices = await apiInvoices(page, 'acme-free');
    expect(invoices.map((invoice) => [invoice.status, invoice.amount_due])).toEqual([
      ['paid', 2500],
    ]);
    await billingSection(page, 'subscription').getByText('Pro plan', { exact: true }).waitFor();
    const top = topInvoiceRow(page);
    await top.getByText(invoices[0]?.number ?? '', { exact: true }).waitFor();
    await top.getByText('$25.00', { exact: true }).waitFor();
    await top.getByText('Paid', { exact: true }).waitFor();
  });
});

describe('acme-pro upgrades to Team with a card that asks on every payment (4000 0027 6000 3184)', () => {
  const harness = useHarness();

  test('a failed challenge changes nothing; a completed one applies Team once, charging what was shown', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const before = await apiSubscription(page, 'acme-pro');
    expect(before.customer_balance).toBe(5000);
    const invoicesBefore = await apiInvoices(page, 'acme-pro');
    const changes = recordRequests(
      page,
      '/platform/organizations/acme-pro/billing/subscription',
      'PUT',
    );

    const dialog = await openUpgrade(page, 'acme-pro', 'Team');
    await chargeTable(dialog).waitFor();
    await dialog.getByRole('button', { name: 'Add new card' }).click();
    await fillCard(dialog, TEST_CARDS.alwaysAuthenticate);
    await dialog.getByRole('button', { name: 'Save card' }).click();
    // Saving the card asks for the challenge, and this card asks again for each payment.
    await challengeDialog(page).getByRole('button', { name: 'Complete authentication' }).click();
    const secure = dialog.getByRole('radio', { name: /Visa ending in 3184/ });
    await secure.waitFor();
    expect(await secure.isChecked()).toBe(true);

    // The $50 balance is applied first: the charge today is the total less $50.00.
    const charge = await shownCharge(dialog);
    expect(charge.credit).toBe(5000);
    expect(charge.lines.map((line) => line.label)).toEqual(
      expect.arrayContaining(['Unused time on Pro plan', 'Team plan']),
    );
    expect(charge.charge).toBe(charge.total - 5000);

    // The bank's challenge for the payment, failed: nothing changes.
    await dialog.getByRole('button', { name: 'Confirm upgrade' }).click();
    const challenge = challengeDialog(page);
    await challenge.waitFor();
    // The upgrade dialog, under the bank's, says what it waits for.
    await page.getByText('Confirming payment…', { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await challenge.getByRole('button', { name: 'Fail authentication' }).click();
    await toastWith(page, CONFIRM_FAILED).waitFor();
    await dialog.getByRole('alert').getByText(CONFIRM_FAILED, { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const afterFailure = await apiSubscription(page, 'acme-pro');
    expect(afterFailure.plan.id).toBe('pro');
    expect(afterFailure.customer_balance).toBe(5000);
    expect(await apiInvoices(page, 'acme-pro')).toEqual(invoicesBefore);

    // Again, completed: Team, once, and the new invoice is the charge that was shown.
    await dialog.getByRole('button', { name: 'Confirm upgrade' }).click();
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    await toastWith(page, upgraded('Team')).waitFor();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('dialog', { name: 'Welcome to the Team plan' }).waitFor();
    expect(changes).toHaveLength(2);

    const after = await apiSubscription(page, 'acme-pro');
    expect(after.plan.id).toBe('team');
    expect(after.customer_balance).toBe(0);
    const invoices = await apiInvoices(page, 'acme-pro');
    expect(invoices).toHaveLength(invoicesBefore.length + 1);
    const [newest] = invoices;
    expect(invoicesBefore.some((invoice) => invoice.id === newest?.id)).toBe(false);
    expect(newest).toMatchObject({ status: 'paid', amount_due: charge.charge });

    // The survey may be skipped; the page shows Team and the invoice on top.
    await page
      .getByRole('dialog', { name: 'Welcome to the Team plan' })
      .getByRole('button', { name: 'Skip' })
      .click();
    await expectFocusOn(page, changePlanLink(page));
    await billingSection(page, 'subscription').getByText('Team plan', { exact: true }).waitFor();
    await topInvoiceRow(page).getByText(dollars(charge.charge), { exact: true }).waitFor();
  });
});

describe('a card the bank declines (4000 0000 0000 0002)', () => {
  const harness = useHarness();

  test('the upgrade shows "Unable to update subscription: …" and nothing changes', async () => {
    const page = await harness().sessionPage('owner@example.com');
    // A declined card cannot be saved (payments.e2e.ts): acme-pro's saved Visa 4242 is declined by
    // its bank from now on, as 4000 0000 0000 0002 is.
    const { defaultPaymentMethodId } = await apiPaymentMethods(page, 'acme-pro');
    const db = harness().server.database.db;
    const saved = await db
      .selectFrom('payment_methods')
      .select('provider_payment_method_id')
      .where('id', '=', defaultPaymentMethodId ?? '')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('simulator_payment_methods')
      .set({ behaviour: 'decline' })
      .where('id', '=', saved.provider_payment_method_id)
      .execute();
    const before = await apiSubscription(page, 'acme-pro');
    const invoicesBefore = await apiInvoices(page, 'acme-pro');

    const dialog = await openUpgrade(page, 'acme-pro', 'Team');
    await shownCharge(dialog);
    const answered = apiResponse(
      page,
      '/platform/organizations/acme-pro/billing/subscription',
      'PUT',
    );
    await dialog.getByRole('button', { name: 'Confirm upgrade' }).click();
    expect((await answered).status()).toBe(402);
    await toastWith(page, unableToUpdate(DECLINED_MESSAGE)).waitFor();
    await dialog.getByRole('alert').getByText(DECLINED_MESSAGE, { exact: true }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);

    expect(await apiSubscription(page, 'acme-pro')).toEqual(before);
    expect(await apiInvoices(page, 'acme-pro')).toEqual(invoicesBefore);
    expect(await apiCustomerBalance(page, 'acme-pro')).toBe(5000);
    // Cancel leaves the dialog, and focus goes back to the button that opened it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    const panel = page.getByRole('dialog', { name: 'Change subscription plan' });
    await expectFocusOn(page, panel.getByRole('button', { name: 'Upgrade to Team' }));
  });
});

describe('plan buttons that cannot be used say why', () => {
  const harness = useHarness();

  /**
   * The button is disabled, its wrapper takes focus (a disabled button takes none) and describes it,
   * and shows the reason as a tooltip on hover and on focus.
   */
  async function expectBlocked(page: Page, panel: Locator, label: string, reason: string) {
    const button = panel.getByRole('button', { name: label });
    expect(await button.isDisabled()).toBe(true);
    const wrapper = button.locator('xpath=..');
    expect(await wrapper.getAttribute('tabindex')).toBe('0');
    const described = await wrapper.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).first().textContent()).toBe(reason);
    await wrapper.hover();
    await page.getByRole('tooltip').getByText(reason, { exact: true }).first().waitFor();
    await wrapper.focus();
    await page.getByRole('tooltip').getByText(reason, { exact: true }).first().waitFor();
  }

  test.each([
    [
      'acme-enterprise',
      ['Downgrade to Free', 'Downgrade to Pro', 'Downgrade to Team'],
      ENTERPRISE_REASON,
    ],
    ['aws-co', ['Downgrade to Free', 'Upgrade to Team'], AWS_REASON],
    ['oriole-co', ['Downgrade to Free', 'Upgrade to Team'], ORIOLE_REASON],
  ])('%s: %j are disabled with the reason', async (slug, labels, reason) => {
    const page = await harness().sessionPage('owner@example.com');
    // acme-enterprise's "Change subscription plan" is disabled itself: the panel opens by its address.
    await page.goto(`/org/${slug}/billing?panel=subscriptionPlan`);
    const panel = page.getByRole('dialog', { name: 'Change subscription plan' });
    await panel.getByRole('article').first().waitFor();
    for (const label of labels) await expectBlocked(page, panel, label, reason);
    // The reason also reads at the top of the panel, without hovering (for a
    // marketplace organization, the partner's notice says where its plan is changed).
    await expectNoticeAboveCards(
      panel,
      slug === 'aws-co' ? 'This organization is managed by AWS Marketplace.' : reason,
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  /** A notice titled `title` reads above the plan cards, without hovering anything. */
  async function expectNoticeAboveCards(panel: Locator, title: string) {
    const notice = panel.locator('p').filter({ hasText: title });
    await notice.first().waitFor();
    expect(await notice.count()).toBe(1);
    const [noticeTop, cardTop] = await Promise.all([
      notice.evaluate((el) => el.getBoundingClientRect().top),
      panel
        .getByRole('article')
        .first()
        .evaluate((el) => el.getBoundingClientRect().top),
    ]);
    expect(noticeTop).toBeLessThan(cardTop);
  }

  test('a developer (developer@example.com) cannot change the plan', async () => {
    const page = await harness().sessionPage('developer@example.com');
    const panel = await openPlanPanel(page, 'acme-pro');
    for (const label of ['Downgrade to Free', 'Upgrade to Team']) {
      await expectBlocked(page, panel, label, NO_PERMISSION);
    }
    // One notice at the top says why, without hovering.
    await expectNoticeAboveCards(panel, NO_PERMISSION);
    await panel
      .getByText('Contact your organization owner or administrator for assistance.')
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'plan-panel-developer');
  });
});
