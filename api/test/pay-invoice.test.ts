import { AUTHENTICATION_FAILED_MESSAGE } from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.ts';
import { collectInvoice } from '../src/services/invoices/collect-invoice.ts';
import {
  CARDS,
  addCard,
  answerChallenge,
  confirmPayment,
  invoicePaymentState,
  listCards,
  paymentMethod,
  tokenize,
  reopenInvoice,
  doubleSubmitAnswers,
  SUCCEEDED_ONCE,
  type PayAnswer,
} from './support/payments.ts';
import { testDatabases, type TestClient, useSignedInServer } from './support/server.ts';

describe.each(testDatabases())('paying an invoice on the hosted page (%s)', (database) => {
  const { server, as } = useSignedInServer({ database });

  const db = () => server().database.db;

  async function openInvoice(slug: string): Promise<string> {
    const invoices = await as('owner').get<{ id: string; status: string }[]>(
      `/platform/organizations/${slug}/billing/invoices?limit=5`,
    );
    const open = invoices.body.find((invoice) => invoice.status === 'open');
    if (!open) throw new Error(`${slug} has no open invoice`);
    return open.id;
  }

  /** The hosted page's Pay: the payment method the browser tokenized, under the attempt's key. */
  function pay(client: TestClient, slug: string, invoiceId: string, pm: string, key?: string) {
    return client.post<PayAnswer>(
      `/platform/organizations/${slug}/billing/invoices/${invoiceId}/pay`,
      { payment_method_id: pm },
      key ? { 'idempotency-key': key } : {},
    );
  }

  /** What the page does after requires_action: confirm (the challenge screen), answer, send again. */
  async function authenticate(secret: string | null | undefined, outcome: 'complete' | 'fail') {
    const confirmed = await confirmPayment(as('owner'), secret ?? '');
    expect(confirmed.body.status).toBe('requires_action');
    return answerChallenge(as('owner'), confirmed.body.challenge?.id ?? '', outcome);
  }

  const invoiceState = (invoiceId: string) => invoicePaymentState(db(), invoiceId);

  /** The provider's id of a card saved for the organization. */
  async function savedCardOf(slug: string): Promise<string> {
    const card = await db()
      .selectFrom('payment_methods')
      .innerJoin('organizations', 'organizations.id', 'payment_methods.organization_id')
      .select('payment_methods.provider_payment_method_id')
      .where('organizations.slug', '=', slug)
      .where('payment_methods.is_default', '=', true)
      .executeTakeFirstOrThrow();
    return card.provider_payment_method_id;
  }

  it('tokenizes a typed card for anyone (as the provider does), refusing one the provider would not take', async () => {
    const visa = await tokenize(as('developer'), CARDS.visa);
    expect(visa.status).toBe(200);
    expect(visa.body.id).toMatch(/^pm_/);
    // A declining card is tokenized; it is declined when charged.
    expect((await tokenize(as('owner'), CARDS.declined)).status).toBe(200);
    const invalid = await tokenize(as('owner'), '4242424242424241');
    expect(invalid).toMatchObject({
      status: 402,
      body: { message: 'Your card number is invalid.' },
    });
    const noCard = await as('owner').post<{ message: string }>(
      '/platform/simulator/payment-methods',
      {},
    );
    expect(noCard.status).toBe(400);
    expect(noCard.body.message).toMatch(/card/i);
    // No session needed: the holder of an invoice's payment link pays with a typed card.
    expect((await tokenize(server().client(), CARDS.visa)).status).toBe(200);
    const noCsrf = await as('owner').request(
      'POST',
      '/platform/simulator/payment-methods',
      { card: { number: CARDS.visa, exp_month: 12, exp_year: 2099, cvc: '123' } },
      {},
      { csrf: false },
    );
    expect(noCsrf.status).toBe(403);
    // Tokenizing saves nothing for anyone.
    const saved = await db()
      .selectFrom('payment_methods')
      .select('id')
      .where('provider_payment_method_id', '=', visa.body.id)
      .execute();
    expect(saved).toHaveLength(0);
  });

  it("pays acme-pro's open invoice with 4242 once, however often the payment is sent", async () => {
    const invoiceId = await openInvoice('acme-pro');
    const link = await as('owner').get<{ redirectUrl: string }>(
      `/platform/organizations/acme-pro/billing/invoices/${invoiceId}/payment-link`,
    );
    expect(link.body.redirectUrl).toBe(`/pay/invoices/${invoiceId}?org=acme-pro`);

    // First a declined card and a failed challenge: the invoice stays open, nothing is charged.
    const declinedCard = await paymentMethod(as('owner'), CARDS.declined);
    const declined = await pay(as('owner'), 'acme-pro', invoiceId, declinedCard, 'pay-declined');
    expect(declined).toMatchObject({ status: 402, body: { message: 'Your card was declined.' } });
    const threeDs = await paymentMethod(as('owner'), CARDS.authenticate);
    const asked = await pay(as('owner'), 'acme-pro', invoiceId, threeDs, 'pay-3ds');
    expect(asked).toMatchObject({ status: 200, body: { status: 'requires_action' } });
    expect(asked.body.payment_intent_secret).toBeTruthy();
    const failed = await authenticate(asked.body.payment_intent_secret, 'fail');
    expect(failed).toMatchObject({ status: 402, body: { message: AUTHENTICATION_FAILED_MESSAGE } });
    // The page sends the attempt again after the challenge: it failed, in the provider's words.
    const afterFailure = await pay(as('owner'), 'acme-pro', invoiceId, threeDs, 'pay-3ds');
    expect(afterFailure).toMatchObject({
      status: 402,
      body: { message: AUTHENTICATION_FAILED_MESSAGE },
    });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'open', succeeded: 0 });

    // Then 4242, double-submitted with one key: one charge, the invoice paid.
    const visa = await paymentMethod(as('owner'), CARDS.visa);
    const [a, b] = await Promise.all([
      pay(as('owner'), 'acme-pro', invoiceId, visa, 'pay-visa'),
      pay(as('owner'), 'acme-pro', invoiceId, visa, 'pay-visa'),
    ]);
    const succeeded = { status: 'succeeded', payment_intent_secret: null };
    expect(SUCCEEDED_ONCE).toContainEqual(doubleSubmitAnswers([a, b]));
    const paid = await invoiceState(invoiceId);
    expect(paid).toMatchObject({ status: 'paid', succeeded: 1 });
    expect(paid.amount_paid_cents).toBe(paid.amount_due_cents);
    const again = await pay(as('owner'), 'acme-pro', invoiceId, visa, 'pay-visa');
    expect(again).toMatchObject({ status: 200, body: succeeded });
    // The key names one attempt with one card.
    const otherCard = await paymentMethod(as('owner'), CARDS.visa);
    expect((await pay(as('owner'), 'acme-pro', invoiceId, otherCard, 'pay-visa')).status).toBe(409);
    // A new attempt finds nothing left to pay.
    const another = await pay(as('owner'), 'acme-pro', invoiceId, otherCard, 'pay-visa-2');
    expect(another).toMatchObject({
      status: 409,
      body: { message: 'This invoice has nothing left to pay' },
    });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
    const listed = await as('owner').get<{ id: string; status: string }[]>(
      '/platform/organizations/acme-pro/billing/invoices?limit=5',
    );
    expect(listed.body.find((invoice) => invoice.id === invoiceId)?.status).toBe('paid');
    // The card typed on the hosted page is not saved to the organization.
    const cards = await as('owner').get<{ data: unknown[] }>(
      '/platform/organizations/acme-pro/payments',
    );
    expect(cards.body.data).toHaveLength(2);
  });

  it('pays restricted-co: the overdue restriction goes and its projects answer again', async () => {
    const invoiceId = await openInvoice('restricted-co');
    const organization = () =>
      as('owner').get<{ restriction_status: string | null }>(
        '/platform/organizations/restricted-co',
      );
    expect((await organization()).body.restriction_status).toBe('restricted');
    expect((await as('owner').get('/platform/projects/restrictedco1')).status).toBe(402);

    // Two attempts with different keys at once: one pays, the other is refused; never two charges.
    const [first, second] = [
      await paymentMethod(as('admin'), CARDS.visa),
      await paymentMethod(as('owner'), CARDS.visa),
    ];
    const results = await Promise.all([
      pay(as('admin'), 'restricted-co', invoiceId, first, 'restricted-a'),
      pay(as('owner'), 'restricted-co', invoiceId, second, 'restricted-b'),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
    expect((await organization()).body.restriction_status).toBeNull();
    expect((await as('owner').get('/platform/projects/restrictedco1')).status).toBe(200);
  });

  it('completing the challenge pays the invoice; an abandoned challenge cannot pay it twice', async () => {
    // acme-team's invoices are all paid in the demo world: one is reopened, as if its charge had failed.
    const target = await reopenInvoice(db(), 'acme-team', 0);
    const card = await paymentMethod(as('owner'), CARDS.authenticate);
    const first = await pay(as('owner'), 'acme-team', target, card, 'abandoned');
    expect(first.body.status).toBe('requires_action');
    const abandoned = await confirmPayment(as('owner'), first.body.payment_intent_secret ?? '');
    expect(abandoned.body.status).toBe('requires_action');

    const again = await paymentMethod(as('owner'), CARDS.authenticate);
    const second = await pay(as('owner'), 'acme-team', target, again, 'completed');
    expect(second.body.status).toBe('requires_action');
    // The first attempt was cancelled when the second began: its challenge no longer pays.
    const late = await answerChallenge(as('owner'), abandoned.body.challenge?.id ?? '', 'complete');
    expect(late.status).toBe(402);
    const done = await authenticate(second.body.payment_intent_secret, 'complete');
    expect(done).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(await invoiceState(target)).toMatchObject({ status: 'paid', succeeded: 1 });
    // The page sends the paying request again with its key: it answers its result, charging nothing.
    const repeated = await pay(as('owner'), 'acme-team', target, again, 'completed');
    expect(repeated).toMatchObject({
      status: 200,
      body: { status: 'succeeded', payment_intent_secret: null },
    });
    const late2 = await pay(as('owner'), 'acme-team', target, card, 'abandoned');
    expect(late2.status).toBe(402);
    expect(await invoiceState(target)).toMatchObject({ status: 'paid', succeeded: 1 });
  });

  it('needs a member who may pay, and keeps invoices to their organization', async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-team', 1);
    const card = await paymentMethod(as('owner'), CARDS.visa);
    for (const user of ['developer', 'readonly']) {
      const response = await pay(as(user), 'acme-team', invoiceId, card, `pay-${user}`);
      expect(response.status, user).toBe(403);
    }
    expect((await pay(as('outsider'), 'acme-team', invoiceId, card, 'x')).status).toBe(404);
    // acme-pro's owner cannot pay acme-team's invoice by naming acme-pro.
    const wrongOrg = await pay(as('owner'), 'acme-pro', invoiceId, card, 'wrong-org');
    expect(wrongOrg).toMatchObject({ status: 404, body: { message: 'Invoice not found' } });
    expect((await pay(server().client(), 'acme-team', invoiceId, card, 'anon')).status).toBe(401);
    const noMethod = await as('owner').post<{ message: string }>(
      `/platform/organizations/acme-team/billing/invoices/${invoiceId}/pay`,
      {},
      { 'idempotency-key': 'no-method' },
    );
    expect(noMethod).toMatchObject({
      status: 400,
      body: { message: 'Payment method id required' },
    });
    expect(await invoiceState(invoiceId)).toMatchObject({
      status: 'open',
      charges: 0,
      succeeded: 0,
    });
  });

  it("refuses another organization's card, whoever learnt its id; the organization's own may pay", async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-pro', 4);
    const foreign = await savedCardOf('acme-team');
    const refused = await pay(as('owner'), 'acme-pro', invoiceId, foreign, 'foreign');
    expect(refused).toMatchObject({ status: 404, body: { message: 'Payment method not found' } });
    const unknown = await pay(as('owner'), 'acme-pro', invoiceId, 'pm_sim_nobody', 'unknown');
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Payment method not found' } });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'open', charges: 0 });

    // The provider's side refuses it too: a charge for acme-pro with acme-team's card fails.
    const acmePro = { id: await server().organizationId('acme-pro') };
    const direct = await server().gateway.charge({
      amountCents: 100,
      providerPaymentMethodId: foreign,
      idempotencyKey: 'foreign-direct',
      description: 'test',
      offSession: false,
      organizationId: acmePro.id,
    });
    expect(direct.status).toBe('failed');

    const own = await pay(as('owner'), 'acme-pro', invoiceId, await savedCardOf('acme-pro'), 'own');
    expect(own).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
  });

  it('lets no automatic retry charge while a Pay Now waits for its challenge', async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-team', 2);
    // The engine's retry is due right now.
    await db()
      .updateTable('invoices')
      .set({ next_payment_attempt_at: new Date(), attempt_count: 1 })
      .where('id', '=', invoiceId)
      .execute();
    const card = await paymentMethod(as('owner'), CARDS.authenticate);
    const started = await pay(as('owner'), 'acme-team', invoiceId, card, 'pay-3ds');
    expect(started.body.status).toBe('requires_action');
    const retry = await collectInvoice(
      { db: db(), gateway: server().gateway, clock: systemClock },
      invoiceId,
      {
        at: new Date(),
        trigger: 'automatic',
      },
    );
    expect(retry).toEqual({ status: 'skipped', reason: 'payment_in_progress' });
    const engineCharges = await db()
      .selectFrom('charges')
      .select('id')
      .where('invoice_id', '=', invoiceId)
      .where('idempotency_key', 'like', '%:attempt:2')
      .execute();
    expect(engineCharges).toHaveLength(0);
    expect((await authenticate(started.body.payment_intent_secret, 'complete')).status).toBe(200);
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
    const settled = await pay(as('owner'), 'acme-team', invoiceId, card, 'pay-3ds');
    expect(settled.body.status).toBe('succeeded');
  });

  /** The organization's saved cards as GET /payments lists them: the ids the hosted page offers. */
  async function savedCards(slug: string) {
    const list = await listCards(as('owner'), slug);
    return list.data;
  }

  it("pays with a saved card by its id in GET /payments: acme-pro's Visa, once, recorded as that card", async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-pro', 5);
    const visa = (await savedCards('acme-pro')).find((card) => card.is_default);
    if (!visa) throw new Error('acme-pro has a default card');
    const [a, b] = await Promise.all([
      pay(as('admin'), 'acme-pro', invoiceId, visa.id, 'saved-visa'),
      pay(as('admin'), 'acme-pro', invoiceId, visa.id, 'saved-visa'),
    ]);
    expect(SUCCEEDED_ONCE).toContainEqual(doubleSubmitAnswers([a, b]));
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
    const charge = await db()
      .selectFrom('charges')
      .select(['payment_method_id', 'provider_payment_method_id', 'created_by'])
      .where('invoice_id', '=', invoiceId)
      .where('idempotency_key', 'like', '%:pay:saved-visa')
      .executeTakeFirstOrThrow();
    expect(charge.payment_method_id).toBe(visa.id);
    expect(charge.provider_payment_method_id).toBe(await savedCardOf('acme-pro'));
    // The same key with another card is another attempt's key.
    const mastercard = (await savedCards('acme-pro')).find((card) => !card.is_default);
    const reused = await pay(
      as('admin'),
      'acme-pro',
      invoiceId,
      mastercard?.id ?? '',
      'saved-visa',
    );
    expect(reused.status).toBe(409);
    // And the card row says it paid.
    const after = (await savedCards('acme-pro')).find((card) => card.id === visa.id);
    expect(after).toMatchObject({ last_charge: { status: 'succeeded' } });
  });

  it("refuses a saved card to anyone but a member with billing write, and another organization's card", async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-pro', 6);
    const [visa] = await savedCards('acme-pro');
    if (!visa) throw new Error('acme-pro has cards');
    // Read-only and developer members may not pay, with a saved card or any.
    for (const user of ['readonly', 'developer']) {
      const refused = await pay(as(user), 'acme-pro', invoiceId, visa.id, `saved-${user}`);
      expect(refused.status, user).toBe(403);
      expect(refused.body.message, user).toMatch(/permission/i);
    }
    // The link alone is not enough: no session, or a user outside the organization.
    expect(
      (await pay(server().client(), 'acme-pro', invoiceId, visa.id, 'saved-anon')).status,
    ).toBe(401);
    const outsider = await pay(as('outsider'), 'acme-pro', invoiceId, visa.id, 'saved-outsider');
    expect(outsider.status).toBe(404);
    // An owner of both organizations cannot pay acme-pro's invoice with acme-team's saved card.
    const [teamCard] = await savedCards('acme-team');
    const foreign = await pay(as('owner'), 'acme-pro', invoiceId, teamCard?.id ?? '', 'saved-team');
    expect(foreign).toMatchObject({ status: 404, body: { message: 'Payment method not found' } });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'open', charges: 0 });
  });

  it('declines and 3-D Secure on a saved card answer as on a typed one', async () => {
    // restricted-co's saved default card is the declining test card.
    const overdue = await reopenInvoice(db(), 'restricted-co', 0);
    const [declining] = await savedCards('restricted-co');
    const declined = await pay(as('owner'), 'restricted-co', overdue, declining?.id ?? '', 'd');
    expect(declined).toMatchObject({ status: 402, body: { message: 'Your card was declined.' } });
    // (Reopened: an earlier test may have paid it; the decline pays nothing more.)
    expect(await invoiceState(overdue)).toMatchObject({ status: 'open' });

    const invoiceId = await reopenInvoice(db(), 'acme-pro', 7);
    const saved = await addCard(as('owner'), 'acme-pro', CARDS.alwaysAuthenticate);
    const asked = await pay(as('owner'), 'acme-pro', invoiceId, saved, 'saved-3ds');
    expect(asked).toMatchObject({ status: 200, body: { status: 'requires_action' } });
    const failed = await authenticate(asked.body.payment_intent_secret, 'fail');
    expect(failed).toMatchObject({ status: 402, body: { message: AUTHENTICATION_FAILED_MESSAGE } });
    const afterFailure = await pay(as('owner'), 'acme-pro', invoiceId, saved, 'saved-3ds');
    expect(afterFailure).toMatchObject({
      status: 402,
      body: { message: AUTHENTICATION_FAILED_MESSAGE },
    });
    const again = await pay(as('owner'), 'acme-pro', invoiceId, saved, 'saved-3ds-2');
    expect(again.body.status).toBe('requires_action');
    expect((await authenticate(again.body.payment_intent_secret, 'complete')).status).toBe(200);
    const settled = await pay(as('owner'), 'acme-pro', invoiceId, saved, 'saved-3ds-2');
    expect(settled).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
  });
});
