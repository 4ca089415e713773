import { emailOutboxListSchema } from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_REFUSED_PAYMENT } from '../src/adapters/payment-gateway.ts';
import { PROVIDER_UNAVAILABLE_MESSAGE } from '../src/plugins/errors.ts';
import type { FakeStripe } from './support/fake-stripe.ts';
import { startStripeServer, type StripeWorld } from './support/stripe-server.ts';
import { captchaToken, listCards, reopenInvoice } from './support/payments.ts';
import { testDatabases, type TestClient, type TestServer } from './support/server.ts';

const METERING_KEY = 'test-metering-key-0123456789';

// What Stripe's refusals of our own requests become, through the real server whose Stripe adapter talks
// to a fake Stripe API on loopback: never a decline of the customer's card, never the provider's words
// about our key to the caller; always an error in the log.
describe.each(testDatabases())("Stripe's refusals of our requests (%s)", (database) => {
  let stripe: FakeStripe;
  let server: TestServer;
  let as: (user: string) => TestClient;
  const lines: string[] = [];

  let world: StripeWorld | undefined;
  beforeAll(async () => {
    world = await startStripeServer({
      database,
      name: 'Refusals',
      env: {
        METERING_API_KEY: METERING_KEY,
        EMAIL_OUTBOX_INTERVAL_SECONDS: '0',
        LOG_LEVEL: 'warn',
      },
      logStream: { write: (line) => lines.push(line) },
    });
    ({ stripe, server, as } = world);
  });
  afterAll(() => world?.close());

  const db = () => server.database.db;
  const org = (slug: string) => `/platform/organizations/${slug}`;
  const errors = () =>
    lines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .filter((l) => l.level >= 50);

  async function failedMails(): Promise<number> {
    const response = await fetch(`${server.url}/internal/emails?limit=200`, {
      headers: { authorization: `Bearer ${METERING_KEY}` },
    });
    return emailOutboxListSchema
      .parse(await response.json())
      .emails.filter((m) => m.event === 'payment.failed').length;
  }

  async function payNow(invoiceId: string, method: string) {
    return as('owner').post<{ status?: string; message?: string }>(
      `${org('acme-team')}/billing/invoices/${invoiceId}/pay`,
      { payment_method_id: method },
      { 'idempotency-key': `refusal-${invoiceId}` },
    );
  }

  const lastCharge = (invoiceId: string) =>
    db()
      .selectFrom('charges')
      .select(['status', 'failure_message', 'payment_method_id', 'provider_payment_method_id'])
      .where('invoice_id', '=', invoiceId)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();

  it('a 400 refusal of a payment fails the attempt as ours, not as a card decline, and logs an error', async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-team', 0);
    const mailsBefore = await failedMails();
    lines.length = 0;
    stripe.refuseNextIntent('parameter_unknown', 'Received unknown parameter: surprise');
    const answer = await payNow(invoiceId, stripe.paymentMethod('visa'));
    expect(answer.body.message ?? '').not.toContain('unknown parameter');
    const charge = await lastCharge(invoiceId);
    expect(charge).toMatchObject({ status: 'failed', failure_message: PROVIDER_REFUSED_PAYMENT });
    expect(await failedMails()).toBe(mailsBefore);
    const cards = await listCards(as('owner'), 'acme-team');
    expect(JSON.stringify(cards)).not.toContain(PROVIDER_REFUSED_PAYMENT);
    expect(errors().map((line) => line.msg)).toContain(
      'payment provider refused a payment request',
    );
    expect(lines.join('')).toContain('Received unknown parameter: surprise');
  });

  it('a payment under the provider minimum is not sent to Stripe and is no decline', async () => {
    const created = stripe.intentCreations().length;
    lines.length = 0;
    const outcome = await server.gateway.charge({
      amountCents: 30,
      providerPaymentMethodId: stripe.paymentMethod('visa'),
      idempotencyKey: 'under-the-minimum',
      description: 'thirty cents',
      offSession: false,
    });
    expect(outcome).toEqual({
      status: 'failed',
      providerRef: null,
      message: PROVIDER_REFUSED_PAYMENT,
    });
    expect(stripe.intentCreations().length).toBe(created);
    expect(errors().map((line) => line.msg)).toContain(
      'payment under the payment provider minimum not sent',
    );
  });

  it('Stripe refusing our key answers 503 with no word of the key, and logs an error', async () => {
    lines.length = 0;
    stripe.failNext(401, 'invalid_request_error', 'Invalid API Key provided: sk_live_****abcd');
    const answer = await as('owner').post<{ message?: string }>(
      `${org('acme-free')}/payments/setup-intent`,
      { hcaptchaToken: await captchaToken(as('owner')) },
    );
    expect(answer).toMatchObject({ status: 503, body: { message: PROVIDER_UNAVAILABLE_MESSAGE } });
    const logged = errors();
    expect(logged.map((line) => line.msg)).toContain('payment provider refused our secret key');
    expect(lines.join('')).not.toContain('sk_live');
    expect(lines.join('')).not.toContain('abcd');
  });
});
