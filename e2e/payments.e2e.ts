import type { Locator, Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  apiResponse,
  billingSection,
  CONTACT_OWNER,
  dollars,
  eventually,
  gotoBilling,
  useHarness,
  apiInvoices,
  type ApiInvoice,
} from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';
import {
  apiCustomerBalance,
  apiPaymentMethods,
  AUTHENTICATION_FAILED,
  CARD_ADDED,
  challengeDialog,
  DECLINED_MESSAGE,
  fillCard,
  fillNewCard,
  TEST_CARDS,
  toastWith,
  TOPPED_UP,
  writeHeaders,
} from './support/payments.ts';

// Issue 5, in the browser against the real product: cards, credit top-ups (with 3-D Secure) and
// Pay Now on the hosted invoice page (the simulator's card fields and challenge). Each describe that moves money or saves cards has a
// harness (and so a database) of its own.

const MANAGE_DENIED = 'You need additional permissions to manage payment methods';
const TOP_UP_DENIED = 'You need additional permissions to top up credits';
const DEFAULT_CARD_REASON =
  'The default payment method cannot be deleted. Make another card the default first.';

function cardList(page: Page): Locator {
  return billingSection(page, 'payment-methods').getByRole('list', { name: 'Cards' });
}

/** The listed cards ending with these four digits. */
function cardRows(page: Page, last4: string): Locator {
  return cardList(page)
    .getByRole('listitem')
    .filter({ hasText: `ending in ${last4}` });
}

/** Every write the page sends to this API path. */
function recordPosts(page: Page, pathname: string): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === pathname) {
      requests.push(request);
    }
  });
  return requests;
}

async function openAddCard(page: Page): Promise<Locator> {
  await billingSection(page, 'payment-methods')
    .getByRole('button', { name: 'Add new card' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Add new card' });
  await dialog.getByLabel('Card number', { exact: true }).waitFor();
  return dialog;
}

async function openTopUp(page: Page): Promise<Locator> {
  await billingSection(page, 'credits-balance').getByRole('button', { name: 'Top Up' }).click();
  const dialog = page.getByRole('dialog', { name: 'Top up credits' });
  await dialog.getByLabel('Amount', { exact: true }).waitFor();
  return dialog;
}

/** The balance the credit section shows: credit is shown as a negative amount. */
function shownBalance(page: Page): Promise<string> {
  return billingSection(page, 'credits-balance').locator('dl dd').first().innerText();
}

async function expectBalance(page: Page, slug: string, cents: number): Promise<void> {
  expect(await apiCustomerBalance(page, slug)).toBe(cents);
  await eventually(() => shownBalance(page)).toBe(dollars(cents === 0 ? 0 : -cents));
}

describe('payment methods (acme-pro)', () => {
  const harness = useHarness();
  const PAYMENTS = '/platform/organizations/acme-pro/payments';

  test('lists Visa 4242 (default, "Active") and Mastercard 4444 ("Expiring soon")', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const api = await apiPaymentMethods(page, 'acme-pro');
    expect(api.data.map((method) => [method.card.brand, method.card.last4])).toEqual([
      ['visa', '4242'],
      ['mastercard', '4444'],
    ]);
    expect(api.defaultPaymentMethodId).toBe(api.data[0]?.id);

    await gotoBilling(page, 'acme-pro');
    const rows = cardList(page).getByRole('listitem');
    await eventually(() => rows.count()).toBe(2);
    const visa = rows.nth(0);
    expect(await visa.innerText()).toMatch(/^Visa\b/);
    expect(await visa.innerText()).toContain('4242');
    await visa.getByText('Active', { exact: true }).waitFor();
    await visa.getByText(/Default for invoices/).waitFor();
    expect(await visa.getByText('Expiring soon', { exact: true }).count()).toBe(0);

    const mastercard = rows.nth(1);
    expect(await mastercard.innerText()).toMatch(/^Mastercard\b/);
    expect(await mastercard.innerText()).toContain('4444');
    await mastercard.getByText('Expiring soon', { exact: true }).waitFor();
    expect(await mastercard.getByText('Active', { exact: true }).count()).toBe(0);
  });

  test('deleting the default card is refused: disabled with its reason, and the API answers 409', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const before = await apiPaymentMethods(page, 'acme-pro');
    await gotoBilling(page, 'acme-pro');
    await cardRows(page, '4242')
      .getByRole('button', { name: 'Manage card ending with 4242' })
      .click();
    const remove = page.getByRole('menuitem', { name: /Delete/ });
    await remove.waitFor();
    expect(await remove.getAttribute('aria-disabled')).toBe('true');
    await remove.getByText(DEFAULT_CARD_REASON, { exact: true }).waitFor();
    await page.keyboard.press('Escape');

    const refused = await page.request.delete(PAYMENTS, {
      headers: await writeHeaders(page),
      data: { card_id: before.defaultPaymentMethodId },
    });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toBe(
      'The default payment method cannot be deleted',
    );
    expect(await apiPaymentMethods(page, 'acme-pro')).toEqual(before);
  });

  test('a declined card (4000 0000 0000 0002) shows the decline and saves nothing', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const before = await apiPaymentMethods(page, 'acme-pro');
    await gotoBilling(page, 'acme-pro');
    await eventually(() => cardList(page).getByRole('listitem').count()).toBe(before.data.length);

    const dialog = await openAddCard(page);
    await fillCard(dialog, TEST_CARDS.declined);
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await dialog.getByRole('alert').getByText(DECLINED_MESSAGE, { exact: true }).waitFor();
    await toastWith(page, DECLINED_MESSAGE).first().waitFor();

    expect(await apiPaymentMethods(page, 'acme-pro')).toEqual(before);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await cardList(page).getByRole('listitem').count()).toBe(before.data.length);
    expect(await cardRows(page, '0002').count()).toBe(0);
  });

  test('adding 4242 4242 4242 4242 shows the success toast and lists the card', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const before = await apiPaymentMethods(page, 'acme-pro');
    await gotoBilling(page, 'acme-pro');
    await eventually(() => cardRows(page, '4242').count()).toBe(1);

    const dialog = await openAddCard(page);
    await fillCard(dialog, TEST_CARDS.visa);
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await toastWith(page, CARD_ADDED).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await eventually(() => cardRows(page, '4242').count()).toBe(2);

    const after = await apiPaymentMethods(page, 'acme-pro');
    expect(after.data).toHaveLength(before.data.length + 1);
    const added = after.data.find((m) => !before.data.some((b) => b.id === m.id));
    expect(added?.card).toMatchObject({ brand: 'visa', last4: '4242' });
    // "Set as default payment method" is checked by default.
    expect(after.defaultPaymentMethodId).toBe(added?.id);
  });
});

describe('top-up (acme-pro, default card)', () => {
  const harness = useHarness();
  const TOP_UP = '/platform/organizations/acme-pro/billing/credits/top-up';

  test('99 and 150.5 show the spec’s messages and send nothing', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const posts = recordPosts(page, TOP_UP);
    await gotoBilling(page, 'acme-pro');
    const dialog = await openTopUp(page);
    const amount = dialog.getByLabel('Amount', { exact: true });
    const submit = dialog.getByRole('button', { name: 'Top Up' });

    await amount.fill('99');
    await submit.click();
    await dialog.getByText('Amount must be between $100 - $2000.', { exact: true }).waitFor();

    await amount.fill('150.5');
    await submit.click();
    await dialog.getByText('Amount must be a whole number.', { exact: true }).waitFor();
    expect(posts).toEqual([]);
  });

  test('150 with the default card: the toast, and the balance rises by exactly $150, once', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const posts = recordPosts(page, TOP_UP);
    const before = await apiCustomerBalance(page, 'acme-pro');
    const cards = await apiPaymentMethods(page, 'acme-pro');
    await gotoBilling(page, 'acme-pro');
    await expectBalance(page, 'acme-pro', before);

    const dialog = await openTopUp(page);
    expect(await dialog.getByLabel('Payment method', { exact: true }).inputValue()).toBe(
      cards.defaultPaymentMethodId,
    );
    await dialog.getByLabel('Amount', { exact: true }).fill('150');
    const answered = apiResponse(page, TOP_UP, 'POST');
    // A double click pays once.
    await dialog.getByRole('button', { name: 'Top Up' }).dblclick();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(await answer.json()).toMatchObject({ status: 'succeeded' });
    await toastWith(page, TOPPED_UP).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expectBalance(page, 'acme-pro', before + 15_000);

    // The double click sent one request; sent again with its key, nothing more is credited.
    expect(posts).toHaveLength(1);
    const [first] = posts;
    if (!first) throw new Error('no top-up was sent');
    const key = (await first.allHeaders())['idempotency-key'];
    expect(key).toBeTruthy();
    expect(first.postDataJSON()).toMatchObject({
      amount: 150,
      payment_method_id: cards.defaultPaymentMethodId,
    });
    const headers = await writeHeaders(page);
    const replay = await page.request.post(TOP_UP, {
      headers: { ...headers, 'idempotency-key': key ?? '' },
      data: first.postDataJSON() as unknown,
    });
    expect(replay.status()).toBe(200);
    expect(await replay.json()).toMatchObject({ status: 'succeeded' });
    await page.reload();
    await billingSection(page, 'credits-balance').waitFor();
    await expectBalance(page, 'acme-pro', before + 15_000);

    // Through the API: one request sent twice at once with one key credits once.
    // No body, so no content type (an empty JSON body is a 400).
    const captcha = await page.request.post('/platform/captcha', {
      headers: { 'x-csrf-token': headers['x-csrf-token'] ?? '' },
    });
    expect(captcha.status()).toBe(200);
    const { token } = (await captcha.json()) as { token: string };
    const twice = await Promise.all(
      [1, 2].map(() =>
        page.request.post(TOP_UP, {
          headers: { ...headers, 'idempotency-key': 'e2e-top-up-twice' },
          data: {
            amount: 100,
            payment_method_id: cards.defaultPaymentMethodId,
            hcaptcha_token: token,
          },
        }),
      ),
    );
    expect(twice.map((response) => response.status())).toEqual([200, 200]);
    await page.reload();
    await billingSection(page, 'credits-balance').waitFor();
    await expectBalance(page, 'acme-pro', before + 25_000);
  });
});

describe('3-D Secure with 4000 0027 6000 3184, which asks on every payment (acme-pro)', () => {
  const harness = useHarness();
  const SECURE_LAST4 = '3184';

  async function secureCardId(page: Page): Promise<string> {
    const { data } = await apiPaymentMethods(page, 'acme-pro');
    const card = data.find((method) => method.card.last4 === SECURE_LAST4);
    if (!card) throw new Error('the 3184 card was not saved');
    return card.id;
  }

  test('adding the card: a failed challenge saves nothing; a completed one saves it', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const before = await apiPaymentMethods(page, 'acme-pro');
    await gotoBilling(page, 'acme-pro');
    const dialog = await openAddCard(page);
    await fillCard(dialog, TEST_CARDS.alwaysAuthenticate);

    await dialog.getByRole('button', { name: 'Save card' }).click();
    await challengeDialog(page).getByRole('button', { name: 'Fail authentication' }).click();
    await challengeDialog(page).waitFor({ state: 'hidden' });
    await dialog.getByRole('alert').getByText(AUTHENTICATION_FAILED, { exact: true }).waitFor();
    expect(await apiPaymentMethods(page, 'acme-pro')).toEqual(before);

    await dialog.getByRole('button', { name: 'Save card' }).click();
    await challengeDialog(page).getByRole('button', { name: 'Complete authentication' }).click();
    await toastWith(page, CARD_ADDED).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await eventually(() => cardRows(page, SECURE_LAST4).count()).toBe(1);
    const after = await apiPaymentMethods(page, 'acme-pro');
    expect(after.data).toHaveLength(before.data.length + 1);
    expect(after.defaultPaymentMethodId).toBe(await secureCardId(page));
  });

  test('a top-up shows the challenge; "Complete authentication" credits the amount', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const cardId = await secureCardId(page);
    const before = await apiCustomerBalance(page, 'acme-pro');
    await gotoBilling(page, 'acme-pro');
    await expectBalance(page, 'acme-pro', before);

    const dialog = await openTopUp(page);
    await dialog.getByLabel('Payment method', { exact: true }).selectOption(cardId);
    await dialog.getByLabel('Amount', { exact: true }).fill('200');
    await dialog.getByRole('button', { name: 'Top Up' }).click();
    const challenge = challengeDialog(page);
    await challenge.waitFor();
    // Nothing is credited while the bank has not answered.
    expect(await apiCustomerBalance(page, 'acme-pro')).toBe(before);
    await challenge.getByRole('button', { name: 'Complete authentication' }).click();
    await toastWith(page, TOPPED_UP).waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await expectBalance(page, 'acme-pro', before + 20_000);
  });

  test('"Fail authentication" shows the error and changes nothing', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const cardId = await secureCardId(page);
    const before = await apiCustomerBalance(page, 'acme-pro');
    await gotoBilling(page, 'acme-pro');
    await expectBalance(page, 'acme-pro', before);

    const dialog = await openTopUp(page);
    await dialog.getByLabel('Payment method', { exact: true }).selectOption(cardId);
    await dialog.getByLabel('Amount', { exact: true }).fill('300');
    await dialog.getByRole('button', { name: 'Top Up' }).click();
    await challengeDialog(page).getByRole('button', { name: 'Fail authentication' }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText('Error topping up balance', { exact: true }).waitFor();
    await alert.getByText(AUTHENTICATION_FAILED, { exact: true }).waitFor();
    await toastWith(page, `Failed to top up credits: ${AUTHENTICATION_FAILED}`).waitFor();

    expect(await apiCustomerBalance(page, 'acme-pro')).toBe(before);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expectBalance(page, 'acme-pro', before);
  });
});

describe('Pay Now on the hosted page', () => {
  const harness = useHarness();

  /** Pays the organization's open invoice with 4242 from its row, and returns it. */
  async function payOpenInvoice(page: Page, slug: string): Promise<ApiInvoice> {
    const invoice = (await apiInvoices(page, slug)).find((i) => i.status === 'open');
    if (!invoice) throw new Error(`${slug} has no open invoice`);
    const row = billingSection(page, 'invoices')
      .getByRole('row')
      .filter({ hasText: invoice.number });
    await row.getByRole('button', { name: 'Pay Now' }).click();
    await page.waitForURL(
      (url) =>
        url.pathname === `/pay/invoices/${invoice.id}` && url.searchParams.get('org') === slug,
    );
    await page.getByText('Amount due', { exact: true }).waitFor();
    await page.getByText(dollars(invoice.amount_due), { exact: true }).first().waitFor();
    await fillNewCard(page.locator('main'), TEST_CARDS.visa);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await page.waitForURL((url) => url.pathname === `/org/${slug}/billing`);
    await row.getByText('Paid', { exact: true }).waitFor();
    expect(await row.getByRole('button', { name: 'Pay Now' }).count()).toBe(0);
    const paid = (await apiInvoices(page, slug)).find((i) => i.id === invoice.id);
    expect(paid?.status).toBe('paid');
    return invoice;
  }

  test("acme-pro's open invoice paid with 4242 shows Paid; the typed card is not saved", async () => {
    const page = await harness().sessionPage('owner@example.com');
    const cards = await apiPaymentMethods(page, 'acme-pro');
    await gotoBilling(page, 'acme-pro');
    const invoice = await payOpenInvoice(page, 'acme-pro');
    await toastWith(page, `Successfully paid invoice ${invoice.number}`).waitFor();
    expect(await apiPaymentMethods(page, 'acme-pro')).toEqual(cards);
  });

  test('restricted-co: paying lifts the restriction (banner gone, its project answers 200)', async () => {
    const page = await harness().sessionPage('owner@example.com');
    expect((await page.request.get('/platform/projects/restrictedco1')).status()).toBe(402);
    await gotoBilling(page, 'restricted-co');
    const banner = page.getByRole('region', { name: 'Usage limits' });
    await banner.waitFor();

    await payOpenInvoice(page, 'restricted-co');
    await banner.waitFor({ state: 'detached' });
    expect((await page.request.get('/platform/projects/restrictedco1')).status()).toBe(200);
    const organization = (await (
      await page.request.get('/platform/organizations/restricted-co')
    ).json()) as { restriction_status: string | null };
    expect(organization.restriction_status).toBeNull();
  });

  test('3-D Secure on the hosted page: a failed challenge leaves it open, a completed one pays it once', async () => {
    // acme-team's invoices are paid in the demo world: one is reopened, as if its charge had failed.
    const db = harness().server.database.db;
    const invoice = await db
      .selectFrom('invoices')
      .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
      .select(['invoices.id', 'invoices.number'])
      .where('organizations.slug', '=', 'acme-team')
      .where('invoices.status', '=', 'paid')
      .where('invoices.amount_due_cents', '>', 0)
      .orderBy('invoices.sequence', 'desc')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('invoices')
      .set({ status: 'open', paid_at: null, amount_paid_cents: 0 })
      .where('id', '=', invoice.id)
      .execute();

    const page = await harness().sessionPage('owner@example.com');
    const payments = recordPosts(
      page,
      `/platform/organizations/acme-team/billing/invoices/${invoice.id}/pay`,
    );
    await page.goto(`/pay/invoices/${invoice.id}?org=acme-team`);
    await fillNewCard(page.locator('main'), TEST_CARDS.authenticate);
    const pay = page.getByRole('button', { name: 'Pay', exact: true });
    await pay.click();
    await challengeDialog(page).getByRole('button', { name: 'Fail authentication' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Payment failed' });
    await alert.getByText(AUTHENTICATION_FAILED, { exact: true }).waitFor();
    const open = (await apiInvoices(page, 'acme-team')).find((i) => i.id === invoice.id);
    expect(open?.status).toBe('open');

    await pay.click();
    await challengeDialog(page).getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL((url) => url.pathname === '/org/acme-team/billing');
    await toastWith(page, `Successfully paid invoice ${invoice.number}`).waitFor();
    const paid = (await apiInvoices(page, 'acme-team')).find((i) => i.id === invoice.id);
    expect(paid?.status).toBe('paid');
    // The failed attempt ends at its challenge; the new one, with a key of its own, is sent again
    // with that key once its challenge passed.
    const keys = payments.map((request) => request.headers()['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[1]).not.toBe(keys[0]);
    expect(keys[2]).toBe(keys[1]);
    const charges = await db
      .selectFrom('charges')
      .select('status')
      .where('invoice_id', '=', invoice.id)
      .where('status', '=', 'succeeded')
      .where('idempotency_key', 'like', '%:pay:%')
      .execute();
    expect(charges).toHaveLength(1);
  });
});

describe('roles and accessibility (acme-pro)', () => {
  const harness = useHarness();

  test('developer: no card menu; "Add new card" and "Top Up" disabled with their reasons; writes are 403', async () => {
    const page = await harness().sessionPage('developer@example.com');
    await gotoBilling(page, 'acme-pro');
    const methods = billingSection(page, 'payment-methods');
    await eventually(() => cardList(page).getByRole('listitem').count()).toBe(2);
    expect(await methods.getByRole('button', { name: /^Manage card ending with/ }).count()).toBe(0);
    const add = methods.getByRole('button', { name: 'Add new card' });
    expect(await add.isDisabled()).toBe(true);
    expect(await methods.getByText(MANAGE_DENIED, { exact: true }).count()).toBeGreaterThan(0);

    const credits = billingSection(page, 'credits-balance');
    const topUp = credits.getByRole('button', { name: 'Top Up' });
    await topUp.waitFor();
    expect(await topUp.isDisabled()).toBe(true);
    expect(await credits.getByText(TOP_UP_DENIED, { exact: true }).count()).toBeGreaterThan(0);

    const headers = await writeHeaders(page);
    const base = '/platform/organizations/acme-pro';
    const { defaultPaymentMethodId } = await apiPaymentMethods(page, 'acme-pro');
    const writes = await Promise.all([
      page.request.post(`${base}/payments/setup-intent`, {
        headers,
        data: { hcaptchaToken: 'x' },
      }),
      page.request.delete(`${base}/payments`, {
        headers,
        data: { card_id: defaultPaymentMethodId },
      }),
      page.request.post(`${base}/billing/credits/top-up`, {
        headers: { ...headers, 'idempotency-key': 'developer-top-up' },
        data: { amount: 150, payment_method_id: defaultPaymentMethodId, hcaptcha_token: 'x' },
      }),
    ]);
    expect(writes.map((response) => response.status())).toEqual([403, 403, 403]);
  });

  test('read-only: the payment-methods read notice, and no cards', async () => {
    const page = await harness().sessionPage('readonly@example.com');
    await gotoBilling(page, 'acme-pro');
    const methods = billingSection(page, 'payment-methods');
    await methods
      .getByText("You need additional permissions to view this organization's payment methods", {
        exact: true,
      })
      .waitFor();
    await methods.getByText(CONTACT_OWNER, { exact: true }).waitFor();
    expect(await cardList(page).count()).toBe(0);
    expect(await methods.getByRole('button', { name: 'Add new card' }).count()).toBe(0);
    const read = await page.request.get('/platform/organizations/acme-pro/payments', {
      headers: { version: '2' },
    });
    expect(read.status()).toBe(403);
  });

  test('no serious or critical axe violations with the add-card dialog open', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    await openAddCard(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('no serious or critical axe violations with the top-up dialog open', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    await openTopUp(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
