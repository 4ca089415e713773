import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoicePaymentKey } from '../src/services/invoices/pay-invoice.ts';
import {
  FAKE_DECLINE_MESSAGE,
  type FakeStripe,
  type FakeCardKind,
  type FakePaymentIntent,
} from './support/fake-stripe.ts';
import { invoicePaymentState, reopenInvoice, type PayAnswer } from './support/payments.ts';
import { startStripeServer, type StripeWorld } from './support/stripe-server.ts';
import { testDatabases, type TestClient, type TestServer } from './support/server.ts';

const WEBHOOK_SECRET = 'whsec_meterlinePayNowSigningSecret';

// Pay Now with Stripe configured: the browser tokenizes the card with Stripe.js and sends only its
// payment method; the server charges it through the official SDK, here pointed at a fake Stripe API.
describe.each(testDatabases())('paying an invoice with Stripe configured (%s)', (database) => {
  let stripe: FakeStripe;
  let server: TestServer;
  let as: (user: string) => TestClient;

  let world: StripeWorld | undefined;
  beforeAll(async () => {
    world = await startStripeServer({
      database,
      name: 'PayNow',
      env: {
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    });
    ({ stripe, server, as } = world);
  });
  afterAll(() => world?.close());

  const db = () => server.database.db;

  const organizationId = (slug: string) => server.organizationId(slug);

  async function openInvoice(slug: string): Promise<string> {
    const invoice = await db()
      .selectFrom('invoices')
      .select('invoices.id')
      .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
      .where('organizations.slug', '=', slug)
      .where('invoices.status', '=', 'open')
      .executeTakeFirstOrThrow();
    return invoice.id;
  }

  function pay(slug: string, invoiceId: string, paymentMethodId: string, key: string) {
    return as('owner').post<PayAnswer>(
      `/platform/organizations/${slug}/billing/invoices/${invoiceId}/pay`,
      { payment_method_id: paymentMethodId },
      { 'idempotency-key': key },
    );
  }

  /** What Stripe.js's createPaymentMethod gives the hosted page for a typed card. */
  const typed = (kind: FakeCardKind) => stripe.paymentMethod(kind);

  const invoiceState = (invoiceId: string) => invoicePaymentState(db(), invoiceId);

  /** Stripe's signed webhook for an intent that succeeded, sent as Stripe sends it. */
  function webhookSucceeded(intent: FakePaymentIntent, eventId: string) {
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      type: 'payment_intent.succeeded',
      api_version: '2025-01-01',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: intent },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    return server
      .client()
      .request<{ received?: boolean; handled?: boolean }>(
        'POST',
        '/platform/webhooks/stripe',
        JSON.parse(payload),
        { 'stripe-signature': signature },
        { csrf: false },
      );
  }

  it('has no simulator to send card numbers to', async () => {
    const config = await as('owner').get<{ payment_provider: string }>('/platform/payments/config');
    expect(config.body.payment_provider).toBe('stripe');
    const tokenize = await as('owner').post('/platform/simulator/payment-methods', {
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' },
    });
    expect(tokenize.status).toBe(404);
  });

  it("pays acme-pro's invoice with a card tokenized by Stripe.js; a decline leaves it open", async () => {
    const invoiceId = await openInvoice('acme-pro');

    const declined = await pay('acme-pro', invoiceId, typed('declined'), 'stripe-declined');
    expect(declined).toMatchObject({ status: 402, body: { message: FAKE_DECLINE_MESSAGE } });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'open', succeeded: 0 });

    const visa = typed('visa');
    const paid = await pay('acme-pro', invoiceId, visa, 'stripe-visa');
    expect(paid).toMatchObject({
      status: 200,
      body: { status: 'succeeded', payment_intent_secret: null },
    });
    const state = await invoiceState(invoiceId);
    expect(state).toMatchObject({ status: 'paid', succeeded: 1 });
    expect(state.amount_paid_cents).toBe(state.amount_due_cents);

    // The charge reached Stripe under the request's Idempotency-Key, for the organization's customer.
    const chargeKey = invoicePaymentKey(invoiceId, 'stripe-visa');
    const creations = stripe.intentCreations().filter((call) => call.idempotencyKey === chargeKey);
    expect(creations).toHaveLength(1);
    expect(creations[0]?.params).toMatchObject({
      amount: String(state.amount_due_cents),
      payment_method: visa,
      // Created unconfirmed, then confirmed once its id is on the charge row (under its own key).
      confirm: 'false',
      'metadata[charge_key]': chargeKey,
      customer: stripe.customerOf(await organizationId('acme-pro')),
    });
    const confirmations = stripe.requests.filter(
      (call) => call.path.endsWith('/confirm') && call.idempotencyKey === `${chargeKey}:confirm`,
    );
    expect(confirmations).toHaveLength(1);

    // The same request again answers the first result and asks Stripe for nothing more.
    const again = await pay('acme-pro', invoiceId, visa, 'stripe-visa');
    expect(again).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(
      stripe.intentCreations().filter((call) => call.idempotencyKey === chargeKey),
    ).toHaveLength(1);
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
  });

  it('3-D Secure: the webhook settles it, the page sending the key again finds it paid, once', async () => {
    const invoiceId = await openInvoice('restricted-co');
    const started = await pay('restricted-co', invoiceId, typed('authenticate'), 'stripe-3ds-a');
    expect(started).toMatchObject({ status: 200, body: { status: 'requires_action' } });
    const secret = started.body.payment_intent_secret ?? '';
    expect(secret).toBe(stripe.intentBySecret(secret).client_secret);
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'open', succeeded: 0 });

    const intent = stripe.authenticate(secret, 'complete');
    expect((await webhookSucceeded(intent, 'evt_paynow_a1')).body).toEqual({
      received: true,
      handled: true,
    });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
    const organization = await as('owner').get<{ restriction_status: string | null }>(
      '/platform/organizations/restricted-co',
    );
    expect(organization.body.restriction_status).toBeNull();

    const { paymentMethodId } = await chargeOf(invoiceId, 'stripe-3ds-a');
    const resent = await pay('restricted-co', invoiceId, paymentMethodId, 'stripe-3ds-a');
    expect(resent).toMatchObject({
      status: 200,
      body: { status: 'succeeded', payment_intent_secret: null },
    });
    // The same news under another event id changes nothing.
    expect((await webhookSucceeded(intent, 'evt_paynow_a2')).status).toBe(200);
    const state = await invoiceState(invoiceId);
    expect(state).toMatchObject({ status: 'paid', charges: 1, succeeded: 1 });
    expect(state.amount_paid_cents).toBe(state.amount_due_cents);
  });

  it('3-D Secure: the page sending the key again settles it from Stripe; the webhook after finds it done', async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-team', 0);
    const card = typed('authenticate');
    const started = await pay('acme-team', invoiceId, card, 'stripe-3ds-b');
    expect(started.body.status).toBe('requires_action');
    // Not authenticated yet: sending it again still asks for the challenge, with the same secret.
    const early = await pay('acme-team', invoiceId, card, 'stripe-3ds-b');
    expect(early.body).toEqual(started.body);

    const intent = stripe.authenticate(started.body.payment_intent_secret ?? '', 'complete');
    const settled = await pay('acme-team', invoiceId, card, 'stripe-3ds-b');
    expect(settled).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
    expect((await webhookSucceeded(intent, 'evt_paynow_b1')).status).toBe(200);
    expect(await invoiceState(invoiceId)).toMatchObject({
      status: 'paid',
      charges: 1,
      succeeded: 1,
    });
    expect(
      stripe.intentCreations().filter((call) => call.params.payment_method === card),
    ).toHaveLength(1);
  });

  it('a failed challenge leaves it open; an abandoned one is cancelled at Stripe before a new attempt', async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-team', 1);
    const failing = await pay('acme-team', invoiceId, typed('authenticate'), 'stripe-3ds-fail');
    stripe.authenticate(failing.body.payment_intent_secret ?? '', 'fail');
    const failed = await pay(
      'acme-team',
      invoiceId,
      (await chargeOf(invoiceId, 'stripe-3ds-fail')).paymentMethodId,
      'stripe-3ds-fail',
    );
    expect(failed.status).toBe(402);
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'open', succeeded: 0 });

    const abandoned = await pay('acme-team', invoiceId, typed('authenticate'), 'stripe-abandoned');
    expect(abandoned.body.status).toBe('requires_action');
    const paid = await pay('acme-team', invoiceId, typed('visa'), 'stripe-after');
    expect(paid).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    const first = stripe.intentBySecret(abandoned.body.payment_intent_secret ?? '');
    expect(first.status).toBe('canceled');
    // Its challenge can no longer pay: the invoice was paid once.
    expect(stripe.authenticate(first.client_secret, 'complete').status).toBe('canceled');
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
  });

  it("refuses a card saved for another customer at Stripe; the organization's own may pay", async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-team', 2);
    const before = stripe.intentCreations().length;
    const foreign = stripe.paymentMethod('visa', 'cus_someone_else');
    const refused = await pay('acme-team', invoiceId, foreign, 'stripe-foreign');
    expect(refused).toMatchObject({ status: 404, body: { message: 'Payment method not found' } });
    const unknown = await pay('acme-team', invoiceId, 'pm_unknown', 'stripe-unknown');
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Payment method not found' } });
    expect(stripe.intentCreations()).toHaveLength(before);
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'open', charges: 0 });

    // A card saved for acme-team's own customer pays.
    const customer = stripe.customerOf(await organizationId('acme-team'));
    if (!customer) throw new Error('acme-team has no Stripe customer yet');
    const own = stripe.paymentMethod('visa', customer);
    const paid = await pay('acme-team', invoiceId, own, 'stripe-own');
    expect(paid).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
  });

  async function chargeOf(invoiceId: string, key: string) {
    const charge = await db()
      .selectFrom('charges')
      .select(['provider_payment_method_id', 'status'])
      .where('idempotency_key', '=', invoicePaymentKey(invoiceId, key))
      .executeTakeFirstOrThrow();
    return { paymentMethodId: charge.provider_payment_method_id ?? '', status: charge.status };
  }
});
