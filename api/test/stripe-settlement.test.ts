import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { insertPaymentMethod } from '../src/repositories/payment-methods.ts';
import { collectInvoice } from '../src/services/invoices/collect-invoice.ts';
import { newId } from '../src/lib/ids.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { FakeStripe, type FakeCardKind } from './support/fake-stripe.ts';
import { FaultyGateway } from './support/faulty-gateway.ts';
import { dueInvoice as dueInvoiceAt, organizationIdOf } from './support/payments.ts';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';

const MINUTE = 60;

// The Stripe adapter under the billing job: its SDK talks to a fake Stripe
// API on loopback; faults are injected at the payment port's boundary.
describe.each(testDatabases())('the billing job with Stripe configured (%s)', (database) => {
  const clock = fixedClock(new Date());
  let stripe: FakeStripe;
  let server: TestServer;
  let faulty: FaultyGateway | undefined;

  beforeAll(async () => {
    stripe = await FakeStripe.start();
    server = await startTestServer({
      database,
      clock,
      env: {
        STRIPE_SECRET_KEY: 'sk_test_meterlineJob',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_meterlineJob',
        STRIPE_API_URL: stripe.url,
      },
      wrapGateway: (gateway) => (faulty = new FaultyGateway(gateway)),
    });
  });
  afterAll(async () => {
    await server.close();
    await stripe.close();
  });

  const db = () => server.database.db;
  const port = () => {
    if (!faulty) throw new Error('no payment port');
    return faulty;
  };
  const deps = () => ({ db: db(), gateway: port(), clock });

  const orgId = (slug: string) => organizationIdOf(db(), slug);
  const dueInvoice = (slug: string, skip: number) => dueInvoiceAt(db(), slug, skip, clock.now());

  /** A card saved at Stripe for the organization, made its default. */
  async function savedCard(slug: string, kind: FakeCardKind): Promise<string> {
    const providerId = stripe.paymentMethod(kind);
    await insertPaymentMethod(db(), {
      id: newId('pm'),
      organizationId: await orgId(slug),
      provider: 'stripe',
      providerPaymentMethodId: providerId,
      brand: 'visa',
      last4: '4242',
      expMonth: 12,
      expYear: 2099,
      isDefault: true,
    });
    return providerId;
  }

  const invoice = (id: string) =>
    db()
      .selectFrom('invoices')
      .select(['status', 'attempt_count', 'payment_attempted'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('takes a card Stripe no longer knows as a decline of that card, and the run goes on', async () => {
    // acme-pro's cards were saved by the demo seed with the simulator: Stripe has never heard of them.
    const unknown = await dueInvoice('acme-pro', 1);
    const run = await runBillingJobs(deps(), clock.now(), await orgId('acme-pro'));
    expect(run.errors).toEqual([]);
    expect(run.failed).toContain(unknown);
    expect(await invoice(unknown)).toMatchObject({ status: 'open', payment_attempted: true });
    const charge = await db()
      .selectFrom('charges')
      .select(['status', 'failure_message'])
      .where('idempotency_key', '=', `invoice:${unknown}:attempt:11`)
      .executeTakeFirstOrThrow();
    expect(charge).toEqual({ status: 'failed', failure_message: 'No such payment method.' });
  });

  it('leaves a payment still processing at Stripe neither paid nor failed, and settles it when it comes through', async () => {
    await savedCard('acme-team', 'processing');
    const id = await dueInvoice('acme-team', 0);
    expect(await collectInvoice(deps(), id, { at: clock.now(), trigger: 'automatic' })).toEqual({
      status: 'processing',
    });
    expect(await invoice(id)).toMatchObject({ status: 'open', attempt_count: 10 });
    const charge = await db()
      .selectFrom('charges')
      .select(['status', 'provider_ref'])
      .where('idempotency_key', '=', `invoice:${id}:attempt:11`)
      .executeTakeFirstOrThrow();
    expect(charge.status).toBe('pending');
    // Asked again while it processes, nothing new starts and nothing is sent to Stripe again.
    expect(await collectInvoice(deps(), id, { at: clock.now(), trigger: 'automatic' })).toEqual({
      status: 'skipped',
      reason: 'payment_in_progress',
    });
    expect(
      new Set(
        stripe
          .intentCreations()
          .filter((request) => request.idempotencyKey?.startsWith(`invoice:${id}:`))
          .map((request) => request.idempotencyKey),
      ).size,
    ).toBe(1);
    stripe.finishProcessing(charge.provider_ref ?? '');
    clock.advance(16 * MINUTE);
    // The job's next pass asks Stripe (its collection step, before any new attempt) and settles it.
    const run = await runBillingJobs(deps(), clock.now(), await orgId('acme-team'));
    expect(run.errors).toEqual([]);
    expect(await invoice(id)).toMatchObject({ status: 'paid', attempt_count: 10 });
    expect(
      stripe
        .intentCreations()
        .filter((request) => request.idempotencyKey?.startsWith(`invoice:${id}:`)),
    ).toHaveLength(1);
  });

  it("finds a charge whose answer was lost through Stripe's search by its charge key, and refunds by key once", async () => {
    await savedCard('acme-team', 'visa');
    const id = await dueInvoice('acme-team', 1);
    port().fail('charge', 'after');
    await expect(
      collectInvoice(deps(), id, { at: clock.now(), trigger: 'automatic' }),
    ).rejects.toThrow();
    await db()
      .updateTable('invoices')
      .set({ next_payment_attempt_at: null })
      .where('id', '=', id)
      .execute();
    clock.advance(6 * MINUTE);
    const run = await runBillingJobs(deps(), clock.now(), await orgId('acme-team'));
    expect(run.errors).toEqual([]);
    expect(run.reconciled).toHaveLength(1);
    expect(await invoice(id)).toMatchObject({ status: 'paid' });
    expect(
      stripe
        .intentCreations()
        .filter((request) => request.idempotencyKey?.startsWith(`invoice:${id}:`)),
    ).toHaveLength(1);

    const charge = await db()
      .selectFrom('charges')
      .select(['provider_ref', 'amount_cents'])
      .where('idempotency_key', '=', `invoice:${id}:attempt:11`)
      .executeTakeFirstOrThrow();
    const refund = {
      providerRef: charge.provider_ref ?? '',
      amountCents: charge.amount_cents,
      idempotencyKey: `refund:test:${id}`,
      reason: 'test',
    };
    const first = await port().refund(refund);
    const again = await port().refund(refund);
    expect(again).toEqual(first);
    expect(
      stripe.refunds.filter((item) => item.payment_intent === refund.providerRef),
    ).toHaveLength(1);
  });
});
