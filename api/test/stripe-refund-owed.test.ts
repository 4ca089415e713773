import { auditLogPageSchema, type AuditLogEntry } from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import type { FakeStripe } from './support/fake-stripe.ts';
import { startStripeServer, type StripeWorld } from './support/stripe-server.ts';
import { organizationIdOf, reopenInvoice } from './support/payments.ts';
import { testDatabases, type TestClient, type TestServer } from './support/server.ts';
import { sendStripeEvent, stripeCharge } from './support/stripe-events.ts';

const WEBHOOK_SECRET = 'whsec_meterlineRefundOwed';

// A refund we owe (a payment that succeeded after its invoice was paid) meeting a refund an operator
// made of the same payment in Stripe's dashboard: the real server, its Stripe adapter talking to a fake
// Stripe API on loopback, and the billing job that sends the refunds owed.
describe.each(testDatabases())('A refund owed after a dashboard refund (%s)', (database) => {
  let stripe: FakeStripe;
  let server: TestServer;
  let as: (user: string) => TestClient;

  let world: StripeWorld | undefined;
  beforeAll(async () => {
    world = await startStripeServer({
      database,
      name: 'RefundOwed',
      env: {
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    });
    ({ stripe, server, as } = world);
  });
  afterAll(() => world?.close());

  const db = () => server.database.db;
  const now = () => Math.floor(Date.now() / 1000);
  const send = (id: string, object: object) =>
    sendStripeEvent(server, WEBHOOK_SECRET, {
      id,
      type: 'charge.refunded',
      object,
      created: now(),
    });
  const org = (slug: string) => `/platform/organizations/${slug}`;
  const billingJob = async () =>
    runBillingJobs(
      { db: db(), gateway: server.gateway, clock: systemClock },
      new Date(),
      await organizationIdOf(db(), 'acme-team'),
    );

  /** A payment of an invoice that came after the invoice was paid: its refund is owed, not yet sent. */
  async function refundOwed(skip: number) {
    const invoiceId = await reopenInvoice(db(), 'acme-team', skip);
    const paid = await as('owner').post<{ status: string }>(
      `${org('acme-team')}/billing/invoices/${invoiceId}/pay`,
      { payment_method_id: stripe.paymentMethod('visa') },
      { 'idempotency-key': `owed-${invoiceId}` },
    );
    expect(paid.body.status).toBe('succeeded');
    const charge = await db()
      .updateTable('charges')
      .set({ refund_status: 'pending', refund_reason: 'The invoice was already paid.' })
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'succeeded')
      .where('idempotency_key', 'like', '%:pay:%')
      .returning(['id', 'provider_ref', 'amount_cents'])
      .executeTakeFirstOrThrow();
    return {
      invoiceId,
      chargeId: charge.id,
      intent: charge.provider_ref ?? '',
      amount: charge.amount_cents,
    };
  }

  const chargeState = (id: string) =>
    db()
      .selectFrom('charges')
      .select(['refund_status', 'amount_refunded_cents', 'refunded_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  async function audited(invoiceId: string): Promise<AuditLogEntry[]> {
    const response = await as('owner').get(
      `${org('acme-team')}/audit-log?action=payment.refunded&limit=100`,
    );
    expect(response.status).toBe(200);
    return auditLogPageSchema
      .parse(response.body)
      .entries.filter((entry) => entry.target.id === invoiceId);
  }

  it('a dashboard refund of it all, its event first, settles the refund owed; nothing more is asked', async () => {
    const { invoiceId, chargeId, intent, amount } = await refundOwed(0);
    stripe.dashboardRefund(intent, amount);
    const event = await send('evt_owed_all', stripeCharge(intent, amount, amount));
    expect(event.body).toEqual({ received: true, handled: true });
    expect(await chargeState(chargeId)).toMatchObject({
      refund_status: 'succeeded',
      amount_refunded_cents: amount,
    });
    expect((await billingJob()).refunded).toEqual([]);
    expect(stripe.refunds.filter((refund) => refund.payment_intent === intent)).toHaveLength(1);
    expect(await audited(invoiceId)).toHaveLength(1);
  });

  it('a dashboard refund of a part: the billing job refunds the rest only, and the refund is settled', async () => {
    const { invoiceId, chargeId, intent, amount } = await refundOwed(1);
    const part = Math.floor(amount / 3);
    stripe.dashboardRefund(intent, part);
    await send('evt_owed_part', stripeCharge(intent, amount, part));
    expect(await chargeState(chargeId)).toMatchObject({
      refund_status: 'pending',
      amount_refunded_cents: part,
    });
    expect((await billingJob()).refunded).toEqual([chargeId]);
    expect(stripe.intent(intent).amount_refunded).toBe(amount);
    expect(
      stripe.refunds.filter((refund) => refund.payment_intent === intent).map((r) => r.amount),
    ).toEqual([part, amount - part]);
    expect((await chargeState(chargeId)).refund_status).toBe('succeeded');
    // Stripe's echo of our refund: the total follows, no second entry.
    await send('evt_owed_part_echo', stripeCharge(intent, amount, amount));
    expect((await chargeState(chargeId)).amount_refunded_cents).toBe(amount);
    expect((await audited(invoiceId)).map((entry) => entry.after?.refunded_cents)).toEqual([part]);
    expect((await billingJob()).refunded).toEqual([]);
  });

  it('a dashboard refund of it all before its event: Stripe says already refunded, the refund is settled and audited once', async () => {
    const { invoiceId, chargeId, intent, amount } = await refundOwed(2);
    stripe.dashboardRefund(intent, amount);
    expect((await billingJob()).refunded).toEqual([chargeId]);
    expect(await chargeState(chargeId)).toMatchObject({
      refund_status: 'succeeded',
      amount_refunded_cents: amount,
    });
    expect((await billingJob()).refunded).toEqual([]);
    await send('evt_owed_late', stripeCharge(intent, amount, amount));
    const entries = await audited(invoiceId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { type: 'provider' },
      after: { amount_refunded_cents: amount, refunded_cents: amount },
    });
  });
});
