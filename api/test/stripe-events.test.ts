import {
  auditLogPageSchema,
  emailOutboxListSchema,
  invoiceDetailSchema,
  type AuditLogEntry,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/lib/ids.ts';
import { PROVIDER_UNAVAILABLE_MESSAGE } from '../src/plugins/errors.ts';
import { insertPaymentMethod } from '../src/repositories/payment-methods.ts';
import { billingRecipients } from '../src/services/notifications/enqueue-email.ts';
import type { FakeStripe } from './support/fake-stripe.ts';
import { startStripeServer, type StripeWorld } from './support/stripe-server.ts';
import { captchaToken, listCards, organizationIdOf, reopenInvoice } from './support/payments.ts';
import { testDatabases, type TestClient, type TestServer } from './support/server.ts';
import { sendStripeEvent, stripeCharge, stripeDispute } from './support/stripe-events.ts';

const WEBHOOK_SECRET = 'whsec_meterlineProviderEvents';
const METERING_KEY = 'test-metering-key-0123456789';

// The card provider's events beyond a payment's outcome, sent as Stripe sends them (signed webhooks) to
// the real server whose Stripe adapter talks to a fake Stripe API on loopback: refunds made in Stripe's
// dashboard, disputes, canceled payments, failed card setups, cards updated by the network; and what
// Stripe's refusals become.
describe.each(testDatabases())('Stripe events and refusals (%s)', (database) => {
  let stripe: FakeStripe;
  let server: TestServer;
  let as: (user: string) => TestClient;

  let world: StripeWorld | undefined;
  beforeAll(async () => {
    world = await startStripeServer({
      database,
      name: 'Events',
      env: {
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        METERING_API_KEY: METERING_KEY,
        EMAIL_OUTBOX_INTERVAL_SECONDS: '0',
      },
    });
    ({ stripe, server, as } = world);
  });
  afterAll(() => world?.close());

  const db = () => server.database.db;
  const now = () => Math.floor(Date.now() / 1000);
  const send = (id: string, type: string, object: object, created?: number) =>
    sendStripeEvent(server, WEBHOOK_SECRET, { id, type, object, created });
  const org = (slug: string) => `/platform/organizations/${slug}`;

  /** An invoice of the organization reopened and paid with Pay Now and a Visa tokenized by Stripe.js. */
  async function paidInvoice(slug: string, skip: number) {
    const invoiceId = await reopenInvoice(db(), slug, skip);
    const paid = await as('owner').post<{ status: string }>(
      `${org(slug)}/billing/invoices/${invoiceId}/pay`,
      { payment_method_id: stripe.paymentMethod('visa') },
      { 'idempotency-key': `events-${invoiceId}` },
    );
    expect(paid.body.status).toBe('succeeded');
    const charge = await db()
      .selectFrom('charges')
      .select(['id', 'provider_ref', 'amount_cents'])
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'succeeded')
      .where('idempotency_key', 'like', '%:pay:%')
      .executeTakeFirstOrThrow();
    return { invoiceId, intent: charge.provider_ref ?? '', amount: charge.amount_cents };
  }

  async function invoice(slug: string, invoiceId: string) {
    const response = await as('owner').get(`${org(slug)}/billing/invoices/${invoiceId}`);
    expect(response.status).toBe(200);
    return invoiceDetailSchema.parse(response.body);
  }

  /** The audit log's entries of an action, newest first, through its API. */
  async function audited(slug: string, action: string): Promise<AuditLogEntry[]> {
    const response = await as('owner').get(`${org(slug)}/audit-log?action=${action}&limit=100`);
    expect(response.status).toBe(200);
    return auditLogPageSchema.parse(response.body).entries;
  }

  /** The billing mail outbox's messages of an event, through the operator's API. */
  async function mails(event: string) {
    const response = await fetch(`${server.url}/internal/emails?limit=200`, {
      headers: { authorization: `Bearer ${METERING_KEY}` },
    });
    expect(response.status).toBe(200);
    return emailOutboxListSchema
      .parse(await response.json())
      .emails.filter((m) => m.event === event);
  }

  const recorded = async (eventId: string) =>
    (await db().selectFrom('payment_events').select('id').where('id', '=', eventId).execute())
      .length;

  it("a refund made in Stripe's dashboard shows on the invoice and in the audit log, once", async () => {
    const { invoiceId, intent, amount } = await paidInvoice('acme-team', 0);
    const half = Math.floor(amount / 2);
    const t = now();
    const first = await send(
      'evt_refund_1',
      'charge.refunded',
      stripeCharge(intent, amount, half),
      t,
    );
    expect(first).toMatchObject({ status: 200, body: { received: true, handled: true } });
    expect(await invoice('acme-team', invoiceId)).toMatchObject({
      status: 'paid',
      amount_paid: amount,
      amount_refunded: half,
    });
    const entries = (await audited('acme-team', 'payment.refunded')).filter(
      (entry) => entry.target.id === invoiceId,
    );
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { type: 'provider', id: null, email: null },
      target: { type: 'invoice', id: invoiceId },
      before: { amount_refunded_cents: 0 },
      after: { amount_refunded_cents: half, refunded_cents: half, amount_cents: amount },
    });

    // The same event again, the same news under another id, and an older one arriving late: nothing.
    expect(
      (await send('evt_refund_1', 'charge.refunded', stripeCharge(intent, amount, half), t)).body,
    ).toEqual({ received: true, handled: false });
    await send('evt_refund_1b', 'charge.refunded', stripeCharge(intent, amount, half), t);
    await send('evt_refund_0', 'charge.refunded', stripeCharge(intent, amount, 1), t - 60);
    expect((await invoice('acme-team', invoiceId)).amount_refunded).toBe(half);

    // The rest refunded later: the total follows, one more entry.
    await send('evt_refund_2', 'charge.refunded', stripeCharge(intent, amount, amount), t + 60);
    expect((await invoice('acme-team', invoiceId)).amount_refunded).toBe(amount);
    const after = (await audited('acme-team', 'payment.refunded')).filter(
      (entry) => entry.target.id === invoiceId,
    );
    expect(after.map((entry) => entry.after?.refunded_cents)).toEqual([amount - half, half]);
  });

  it('a dispute is recorded on the invoice, audited, and mailed to the billing recipients when it opens and closes', async () => {
    const { invoiceId, intent, amount } = await paidInvoice('acme-team', 1);
    const t = now();
    const dispute = (status: string) =>
      stripeDispute('dp_fake_1', intent, { amount, status, created: t });
    const opened = await send('evt_dp_1', 'charge.dispute.created', dispute('needs_response'), t);
    expect(opened.body).toEqual({ received: true, handled: true });
    const detail = await invoice('acme-team', invoiceId);
    expect(detail.disputes).toEqual([
      {
        id: expect.stringMatching(/^dp_/) as string,
        amount,
        reason: 'fraudulent',
        status: 'needs_response',
        opened_at: t,
        closed_at: null,
      },
    ]);
    const recipients = await billingRecipients(db(), await organizationIdOf(db(), 'acme-team'));
    expect(recipients.length).toBeGreaterThan(0);
    const openedMail = await mails('payment.disputed');
    expect(openedMail.map((mail) => mail.to).sort()).toEqual([...recipients].sort());
    expect(openedMail[0]?.subject).toMatch(/^A payment of Acme Team is disputed/);

    await send('evt_dp_2', 'charge.dispute.updated', dispute('under_review'), t + 10);
    await send('evt_dp_3', 'charge.dispute.closed', dispute('lost'), t + 20);
    // Late and repeated: an update older than the closing, the closing again under another id.
    await send('evt_dp_late', 'charge.dispute.updated', dispute('under_review'), t + 15);
    await send('evt_dp_3b', 'charge.dispute.closed', dispute('lost'), t + 20);
    expect((await send('evt_dp_3', 'charge.dispute.closed', dispute('lost'), t + 20)).body).toEqual(
      { received: true, handled: false },
    );

    expect((await invoice('acme-team', invoiceId)).disputes).toMatchObject([
      { status: 'lost', opened_at: t, closed_at: t + 20 },
    ]);
    const steps = ['payment.dispute_opened', 'payment.dispute_updated', 'payment.dispute_closed'];
    for (const action of steps) {
      const entries = (await audited('acme-team', action)).filter(
        (entry) => entry.target.id === invoiceId,
      );
      expect(entries, action).toHaveLength(1);
      expect(entries[0]?.actor.type).toBe('provider');
    }
    const all = await mails('payment.disputed');
    expect(all).toHaveLength(recipients.length * 2);
    expect(all.filter((mail) => /closed: lost$/.test(mail.subject))).toHaveLength(
      recipients.length,
    );
  });

  it('payment_intent.canceled fails its charge once; a late one after a success changes nothing', async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-pro', 0);
    const started = await as('owner').post<{ status: string; payment_intent_secret: string }>(
      `${org('acme-pro')}/billing/invoices/${invoiceId}/pay`,
      { payment_method_id: stripe.paymentMethod('authenticate') },
      { 'idempotency-key': 'events-canceled' },
    );
    expect(started.body.status).toBe('requires_action');
    const intent = stripe.intentBySecret(started.body.payment_intent_secret);
    intent.status = 'canceled';
    const failedBefore = (await audited('acme-pro', 'invoice.payment_failed')).length;
    for (const id of ['evt_cancel_1', 'evt_cancel_2']) {
      expect((await send(id, 'payment_intent.canceled', intent)).status).toBe(200);
    }
    const charge = await db()
      .selectFrom('charges')
      .select(['status', 'failure_message'])
      .where('provider_ref', '=', intent.id)
      .executeTakeFirstOrThrow();
    expect(charge).toEqual({ status: 'failed', failure_message: 'This payment was canceled.' });
    expect((await invoice('acme-pro', invoiceId)).status).toBe('open');
    expect(await audited('acme-pro', 'invoice.payment_failed')).toHaveLength(failedBefore + 1);

    const paid = await paidInvoice('acme-pro', 1);
    const late = await send('evt_cancel_late', 'payment_intent.canceled', {
      ...stripe.intent(paid.intent),
      status: 'canceled',
    });
    expect(late.status).toBe(200);
    expect((await invoice('acme-pro', paid.invoiceId)).status).toBe('paid');
  });

  it('setup_intent.setup_failed settles the setup as failed once; an unknown setup is acknowledged', async () => {
    const created = await as('owner').post<{ client_secret: string }>(
      `${org('acme-team')}/payments/setup-intent`,
      { hcaptchaToken: await captchaToken(as('owner')) },
    );
    expect(created.status).toBe(200);
    const setupId = created.body.client_secret.split('_secret_')[0] ?? '';
    const object = {
      id: setupId,
      object: 'setup_intent',
      status: 'requires_payment_method',
      last_setup_error: { message: 'Your card was declined.' },
    };
    expect((await send('evt_setup_1', 'setup_intent.setup_failed', object)).body).toEqual({
      received: true,
      handled: true,
    });
    expect((await send('evt_setup_2', 'setup_intent.setup_failed', object)).status).toBe(200);
    const setup = await db()
      .selectFrom('setup_intents')
      .select(['status', 'failure_message'])
      .where('provider_setup_intent_id', '=', setupId)
      .executeTakeFirstOrThrow();
    expect(setup).toEqual({ status: 'failed', failure_message: 'Your card was declined.' });

    // Objects Stripe knows and we do not: acknowledged, recorded, never a 5xx.
    const unknown = [
      ['evt_unknown_1', 'setup_intent.setup_failed', { ...object, id: 'seti_nobody' }],
      ['evt_unknown_2', 'charge.refunded', stripeCharge('pi_nobody', 500, 500)],
      [
        'evt_unknown_3',
        'charge.dispute.created',
        stripeDispute('dp_x', 'pi_nobody', {
          amount: 500,
          status: 'needs_response',
          created: now(),
        }),
      ],
      [
        'evt_unknown_4',
        'payment_method.updated',
        {
          id: 'pm_nobody',
          object: 'payment_method',
          card: { brand: 'visa', last4: '4242', exp_month: 1, exp_year: 2040 },
        },
      ],
      [
        'evt_unknown_5',
        'payment_intent.canceled',
        { id: 'pi_nobody', object: 'payment_intent', status: 'canceled', metadata: {} },
      ],
    ] as const;
    for (const [id, type, body] of unknown) {
      const answer = await send(id, type, body);
      expect(answer, type).toMatchObject({ status: 200, body: { received: true, handled: false } });
      expect(await recorded(id)).toBe(1);
    }
  });

  it('a card updated by the network takes its new expiry and brand; an older update arriving late does not', async () => {
    const providerId = stripe.paymentMethod('visa');
    await insertPaymentMethod(db(), {
      id: newId('pm'),
      organizationId: await organizationIdOf(db(), 'acme-team'),
      provider: 'stripe',
      providerPaymentMethodId: providerId,
      brand: 'visa',
      last4: '4242',
      expMonth: 1,
      expYear: 2027,
      isDefault: false,
    });
    const t = now();
    const card = (brand: string, last4: string, month: number, year: number) => ({
      id: providerId,
      object: 'payment_method',
      type: 'card',
      card: { brand, last4, exp_month: month, exp_year: year },
    });
    const updated = await send(
      'evt_pm_1',
      'payment_method.automatically_updated',
      card('mastercard', '4444', 3, 2031),
      t,
    );
    expect(updated.body).toEqual({ received: true, handled: true });
    await send('evt_pm_0', 'payment_method.updated', card('visa', '4242', 2, 2029), t - 60);
    const listed = (await listCards(as('owner'), 'acme-team')).data.filter(
      (item) => item.card.last4 === '4444',
    );
    expect(listed.map((item) => item.card)).toEqual([
      { brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2031 },
    ]);
    const entries = await audited('acme-team', 'payment_method.updated');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { type: 'provider' },
      before: { brand: 'visa', exp_month: 1, exp_year: 2027 },
      after: { brand: 'mastercard', exp_month: 3, exp_year: 2031 },
    });
    // A newer update of the expiry alone.
    await send('evt_pm_2', 'payment_method.updated', card('mastercard', '4444', 4, 2032), t + 60);
    const again = (await listCards(as('owner'), 'acme-team')).data.find(
      (item) => item.card.last4 === '4444',
    );
    expect(again?.card).toMatchObject({ exp_month: 4, exp_year: 2032 });
  });

  it("Stripe's refusals answer 400 with its message; our key refused, no answer or a 5xx is an outage (503)", async () => {
    const startSetup = async () =>
      as('owner').post<{ message?: string }>(`${org('acme-free')}/payments/setup-intent`, {
        hcaptchaToken: await captchaToken(as('owner')),
      });
    stripe.failNext(401, 'invalid_request_error', 'Invalid API Key provided: sk_test_****');
    const badKey = await startSetup();
    expect(badKey).toMatchObject({ status: 503, body: { message: PROVIDER_UNAVAILABLE_MESSAGE } });
    stripe.failNext(400, 'invalid_request_error', 'Received unknown parameter: usage');
    const refused = await startSetup();
    expect(refused).toMatchObject({
      status: 400,
      body: {
        message: 'The payment provider refused the request: Received unknown parameter: usage',
      },
    });
    // The SDK tries a 5xx three times (two retries): all three fail.
    stripe.failNext(500, 'api_error', 'An unknown error occurred', 3);
    const outage = await startSetup();
    expect(outage).toMatchObject({ status: 503, body: { message: PROVIDER_UNAVAILABLE_MESSAGE } });
    expect((await startSetup()).status).toBe(200);
  });
});
