import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeStripe } from './support/fake-stripe.ts';
import { startStripeServer, type StripeWorld } from './support/stripe-server.ts';
import { reopenInvoice } from './support/payments.ts';
import { testDatabases, type TestClient, type TestServer } from './support/server.ts';
import { sendStripeEvent, stripeDispute } from './support/stripe-events.ts';

const WEBHOOK_SECRET = 'whsec_meterlineDisputeOrder';

// Dispute events as Stripe sends them, side by side and within one second: the real server, its Stripe
// adapter talking to a fake Stripe API on loopback.
describe.each(testDatabases())('Dispute events in any order (%s)', (database) => {
  let stripe: FakeStripe;
  let server: TestServer;
  let as: (user: string) => TestClient;

  let world: StripeWorld | undefined;
  beforeAll(async () => {
    world = await startStripeServer({
      database,
      name: 'DisputeOrder',
      env: {
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      },
    });
    ({ stripe, server, as } = world);
  });
  afterAll(() => world?.close());

  const db = () => server.database.db;
  const send = (id: string, type: string, object: object, created: number) =>
    sendStripeEvent(server, WEBHOOK_SECRET, { id, type, object, created });

  async function paidIntent(skip: number): Promise<{ intent: string; amount: number }> {
    const invoiceId = await reopenInvoice(db(), 'acme-team', skip);
    const paid = await as('owner').post<{ status: string }>(
      `/platform/organizations/acme-team/billing/invoices/${invoiceId}/pay`,
      { payment_method_id: stripe.paymentMethod('visa') },
      { 'idempotency-key': `dispute-order-${invoiceId}` },
    );
    expect(paid.body.status).toBe('succeeded');
    const charge = await db()
      .selectFrom('charges')
      .select(['provider_ref', 'amount_cents'])
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    return { intent: charge.provider_ref ?? '', amount: charge.amount_cents };
  }

  const disputeStatus = (id: string) =>
    db()
      .selectFrom('charge_disputes')
      .select(['status', 'closed_at'])
      .where('provider_dispute_id', '=', id)
      .execute();

  it('two first events of a new dispute sent side by side both answer 200; one dispute is recorded', async () => {
    const { intent, amount } = await paidIntent(0);
    const t = Math.floor(Date.now() / 1000);
    const dispute = (status: string) =>
      stripeDispute('dp_race', intent, { amount, status, created: t });
    const answers = await Promise.all([
      send('evt_race_1', 'charge.dispute.created', dispute('needs_response'), t),
      send('evt_race_2', 'charge.dispute.updated', dispute('needs_response'), t),
      send('evt_race_3', 'charge.dispute.updated', dispute('needs_response'), t),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(await disputeStatus('dp_race')).toHaveLength(1);
  });

  it('within one second the status further along wins: under review over needs response; closed stays closed', async () => {
    const { intent, amount } = await paidIntent(1);
    const t = Math.floor(Date.now() / 1000);
    const dispute = (status: string) =>
      stripeDispute('dp_tie', intent, { amount, status, created: t });
    await send('evt_tie_1', 'charge.dispute.updated', dispute('under_review'), t);
    await send('evt_tie_2', 'charge.dispute.created', dispute('needs_response'), t);
    expect((await disputeStatus('dp_tie'))[0]?.status).toBe('under_review');
    await send('evt_tie_3', 'charge.dispute.closed', dispute('won'), t);
    await send('evt_tie_4', 'charge.dispute.updated', dispute('under_review'), t);
    const [row] = await disputeStatus('dp_tie');
    expect(row?.status).toBe('won');
    expect(row?.closed_at).not.toBeNull();
  });
});
