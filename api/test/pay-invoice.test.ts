import { AUTHENTICATION_FAILED_MESSAGE } from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectInvoice } from '../src/services/billing/collect-invoice.ts';
import { CARDS, answerChallenge, card } from './support/payments.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
  signInEveryone,
} from './support/server.ts';

describe.each(testDatabases())('paying an invoice on the hosted page (%s)', (database) => {
  let server: TestServer;
  let as: (user: string) => TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database });
    as = await signInEveryone(server);
  });
  afterAll(() => server.close());

  const db = () => server.database.db;

  async function openInvoice(slug: string): Promise<string> {
    const invoices = await as('owner').get<{ id: string; status: string }[]>(
      `/platform/organizations/${slug}/billing/invoices?limit=5`,
    );
    const open = invoices.body.find((invoice) => invoice.status === 'open');
    if (!open) throw new Error(`${slug} has no open invoice`);
    return open.id;
  }

  function pay(client: TestClient, invoiceId: string, org: string, number: string, key: string) {
    return client.post<{ status?: string; challenge?: { id: string }; message?: string }>(
      `/platform/simulator/invoices/${invoiceId}/pay`,
      { org, card: card(number) },
      { 'idempotency-key': key },
    );
  }

  async function invoiceState(invoiceId: string) {
    const invoice = await db()
      .selectFrom('invoices')
      .select(['status', 'amount_paid_cents', 'amount_due_cents'])
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    const charges = await db()
      .selectFrom('charges')
      .select(['status'])
      .where('invoice_id', '=', invoiceId)
      // Pay Now's charges (a reopened invoice keeps the engine's earlier one).
      .where('idempotency_key', 'like', '%:pay:%')
      .orderBy('created_at')
      .execute();
    return {
      ...invoice,
      succeeded: charges.filter((charge) => charge.status === 'succeeded').length,
    };
  }

  it("pays acme-pro's open invoice with 4242 once, however often the payment is sent", async () => {
    const invoiceId = await openInvoice('acme-pro');
    const link = await as('owner').get<{ redirectUrl: string }>(
      `/platform/organizations/acme-pro/billing/invoices/${invoiceId}/payment-link`,
    );
    expect(link.body.redirectUrl).toBe(`/pay/invoices/${invoiceId}?org=acme-pro`);

    // First a declined card and a failed challenge: the invoice stays open, nothing is charged.
    const declined = await pay(as('owner'), invoiceId, 'acme-pro', CARDS.declined, 'pay-declined');
    expect(declined).toMatchObject({ status: 402, body: { message: 'Your card was declined.' } });
    const asked = await pay(as('owner'), invoiceId, 'acme-pro', CARDS.authenticate, 'pay-3ds');
    expect(asked.body.status).toBe('requires_action');
    const failed = await answerChallenge(as('owner'), asked.body.challenge?.id ?? '', 'fail');
    expect(failed).toMatchObject({ status: 402, body: { message: AUTHENTICATION_FAILED_MESSAGE } });
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'open', succeeded: 0 });

    // Then 4242, double-submitted with one key: one charge, the invoice paid.
    const [a, b] = await Promise.all([
      pay(as('owner'), invoiceId, 'acme-pro', CARDS.visa, 'pay-visa'),
      pay(as('owner'), invoiceId, 'acme-pro', CARDS.visa, 'pay-visa'),
    ]);
    expect(a).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(b).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    const paid = await invoiceState(invoiceId);
    expect(paid).toMatchObject({ status: 'paid', succeeded: 1 });
    expect(paid.amount_paid_cents).toBe(paid.amount_due_cents);
    const again = await pay(as('owner'), invoiceId, 'acme-pro', CARDS.visa, 'pay-visa');
    expect(again).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    // A new attempt finds nothing left to pay.
    const another = await pay(as('owner'), invoiceId, 'acme-pro', CARDS.visa, 'pay-visa-2');
    expect(another.status).toBe(409);
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
    const results = await Promise.all([
      pay(as('admin'), invoiceId, 'restricted-co', CARDS.visa, 'restricted-a'),
      pay(as('owner'), invoiceId, 'restricted-co', CARDS.visa, 'restricted-b'),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
    expect((await organization()).body.restriction_status).toBeNull();
    expect((await as('owner').get('/platform/projects/restrictedco1')).status).toBe(200);
  });

  it('completing the challenge pays the invoice; an abandoned challenge cannot pay it twice', async () => {
    // acme-team's invoices are all paid in the demo world: one is reopened, as if its charge had failed.
    const target = await makeOpenInvoice(0);
    const first = await pay(as('owner'), target, 'acme-team', CARDS.authenticate, 'abandoned');
    expect(first.body.status).toBe('requires_action');
    const second = await pay(as('owner'), target, 'acme-team', CARDS.authenticate, 'completed');
    expect(second.body.status).toBe('requires_action');
    // The first attempt was cancelled when the second began: its challenge no longer pays.
    const late = await answerChallenge(as('owner'), first.body.challenge?.id ?? '', 'complete');
    expect(late.status).toBe(402);
    const done = await answerChallenge(as('owner'), second.body.challenge?.id ?? '', 'complete');
    expect(done).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(await invoiceState(target)).toMatchObject({ status: 'paid', succeeded: 1 });
    // The paying request repeated answers its result.
    const repeated = await pay(as('owner'), target, 'acme-team', CARDS.authenticate, 'completed');
    expect(repeated).toMatchObject({ status: 200, body: { status: 'succeeded' } });
  });

  async function makeOpenInvoice(skip: number): Promise<string> {
    const org = await db()
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'acme-team')
      .executeTakeFirstOrThrow();
    const paid = await db()
      .selectFrom('invoices')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('amount_due_cents', '>', 0)
      .orderBy('sequence', 'desc')
      .offset(skip)
      .limit(1)
      .executeTakeFirst();
    if (!paid) throw new Error('acme-team has no invoice');
    await db()
      .updateTable('invoices')
      .set({ status: 'open', paid_at: null, amount_paid_cents: 0 })
      .where('id', '=', paid.id)
      .execute();
    return paid.id;
  }

  it('needs a member who may pay, and keeps invoices to their organization', async () => {
    const invoiceId = await makeOpenInvoice(1);
    for (const user of ['developer', 'readonly']) {
      const response = await pay(as(user), invoiceId, 'acme-team', CARDS.visa, `pay-${user}`);
      expect(response.status, user).toBe(403);
    }
    expect((await pay(as('outsider'), invoiceId, 'acme-team', CARDS.visa, 'x')).status).toBe(404);
    // acme-pro's owner cannot pay acme-team's invoice by naming acme-pro.
    expect((await pay(as('owner'), invoiceId, 'acme-pro', CARDS.visa, 'wrong-org')).status).toBe(
      404,
    );
    const noSession = await server.client().post(`/platform/simulator/invoices/${invoiceId}/pay`, {
      org: 'acme-team',
      card: card(CARDS.visa),
    });
    expect(noSession.status).toBe(401);
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'open', succeeded: 0 });
  });

  it('lets no automatic retry charge while a Pay Now waits for its challenge', async () => {
    const invoiceId = await makeOpenInvoice(2);
    // The engine's retry is due right now.
    await db()
      .updateTable('invoices')
      .set({ next_payment_attempt_at: new Date(), attempt_count: 1 })
      .where('id', '=', invoiceId)
      .execute();
    const started = await pay(as('owner'), invoiceId, 'acme-team', CARDS.authenticate, 'pay-3ds');
    expect(started.body.status).toBe('requires_action');
    const retry = await collectInvoice(db(), server.gateway, invoiceId, {
      at: new Date(),
      trigger: 'automatic',
    });
    expect(retry).toEqual({ status: 'skipped', reason: 'payment_in_progress' });
    const engineCharges = await db()
      .selectFrom('charges')
      .select('id')
      .where('invoice_id', '=', invoiceId)
      .where('idempotency_key', 'like', '%:attempt:2')
      .execute();
    expect(engineCharges).toHaveLength(0);
    const challenge = started.body.challenge?.id ?? '';
    expect((await answerChallenge(as('owner'), challenge, 'complete')).status).toBe(200);
    expect(await invoiceState(invoiceId)).toMatchObject({ status: 'paid', succeeded: 1 });
  });
});
