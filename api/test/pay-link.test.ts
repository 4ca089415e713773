import {
  PAY_LINK_ATTEMPTS_PER_HOUR,
  PAY_LINK_NOT_VALID,
  PAY_LINK_TOO_MANY_ATTEMPTS,
  payLinkInvoiceSchema,
} from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { newId } from '../src/lib/ids.ts';
import { renderEmail } from '../src/services/notifications/render-email.tsx';
import { payLinkKey, payLinkSecret } from '../src/repositories/pay-links.ts';
import {
  CARDS,
  answerChallenge,
  confirmPayment,
  paymentMethod,
  reopenInvoice,
  doubleSubmitAnswers,
  SUCCEEDED_ONCE,
  type PayAnswer,
} from './support/payments.ts';
import { testDatabases, useSignedInServer, type TestClient } from './support/server.ts';

// The invoice's signed payment link, the Pay Now link of the billing emails. Whoever
// holds it sees the invoice and pays it with a new card, without a session; nothing else.

describe.each(testDatabases())('the payment link of an invoice (%s)', (database) => {
  const { server, as } = useSignedInServer({ database });
  const db = () => server().database.db;
  // Each test its own address: the per-address limits count apart.
  const visitor = (n: number) => server().client(`127.0.0.${n}`);

  async function openInvoice(slug: string): Promise<string> {
    const row = await db()
      .selectFrom('invoices')
      .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
      .select('invoices.id')
      .where('organizations.slug', '=', slug)
      .where('invoices.status', '=', 'open')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** The invoice, and the payments started through its link. */
  async function linkState(invoiceId: string) {
    const invoice = await db()
      .selectFrom('invoices')
      .select(['status', 'amount_paid_cents', 'amount_due_cents'])
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    const charges = await db()
      .selectFrom('charges')
      .select('status')
      .where('invoice_id', '=', invoiceId)
      .where('idempotency_key', 'like', '%:link:%')
      .execute();
    return {
      ...invoice,
      charges: charges.length,
      succeeded: charges.filter((charge) => charge.status === 'succeeded').length,
    };
  }

  async function keyOf(invoiceId: string) {
    return payLinkKey(await payLinkSecret(db()), invoiceId);
  }

  const show = (client: TestClient, invoiceId: string, key: string) =>
    client.get<unknown>(`/platform/pay/invoices/${invoiceId}?key=${encodeURIComponent(key)}`);

  const pay = (client: TestClient, invoiceId: string, key: string, pm: string, attempt: string) =>
    client.post<PayAnswer>(
      `/platform/pay/invoices/${invoiceId}/pay?key=${encodeURIComponent(key)}`,
      { payment_method_id: pm },
      { 'idempotency-key': attempt },
    );

  it('is the Pay Now link of the billing emails, and shows the invoice without a session', async () => {
    const invoiceId = await openInvoice('restricted-co');
    const key = await keyOf(invoiceId);
    const mail = await renderEmail(
      {
        kind: 'payment.failed',
        organization: { slug: 'restricted-co', name: 'Restricted Co' },
        invoiceId,
        invoiceNumber: 'X',
        amountCents: 100,
        reason: 'Your card was declined.',
        card: null,
        nextAttemptAt: null,
      },
      { baseUrl: 'https://billing.example.com', payLinkSecret: await payLinkSecret(db()) },
    );
    expect(mail.text).toContain(
      `https://billing.example.com/pay/invoices/${invoiceId}?org=restricted-co&key=${key}`,
    );

    const shown = await show(visitor(2), invoiceId, key);
    expect(shown.status).toBe(200);
    const body = payLinkInvoiceSchema.parse(shown.body);
    expect(body.organization_name).toBe('Restricted Co');
    expect(body.invoice.id).toBe(invoiceId);
    expect(body.invoice.status).toBe('open');
    expect(body.invoice.amount_due).toBeGreaterThan(0);
    // Not every holder of the link is a member: no billing email, no card.
    expect(body.invoice.billing_email).toBeNull();
    expect(body.invoice.paid_with).toBeNull();
  });

  it('answers 404 to a wrong key, the key of another invoice, or an unknown invoice; 400 to no key', async () => {
    const invoiceId = await openInvoice('restricted-co');
    const other = await openInvoice('acme-pro');
    const client = visitor(3);
    const wrong = 'A'.repeat(43);
    for (const [id, key] of [
      [invoiceId, wrong],
      [invoiceId, await keyOf(other)],
      ['in_doesnotexist', await keyOf('in_doesnotexist')],
    ] as const) {
      const answer = await show(client, id, key);
      expect(answer).toMatchObject({ status: 404, body: { message: PAY_LINK_NOT_VALID } });
    }
    const pm = await paymentMethod(client, CARDS.visa);
    const refused = await pay(client, invoiceId, await keyOf(other), pm, 'wrong-key');
    expect(refused.status).toBe(404);
    expect((await client.get(`/platform/pay/invoices/${invoiceId}`)).status).toBe(400);
    expect((await show(client, invoiceId, 'short')).status).toBe(400);
    expect(await linkState(invoiceId)).toMatchObject({
      status: 'open',
      succeeded: 0,
    });
  });

  it("never pays with a saved card, by our id or the provider's", async () => {
    const invoiceId = await openInvoice('acme-pro');
    const key = await keyOf(invoiceId);
    const saved = await db()
      .selectFrom('payment_methods')
      .innerJoin('organizations', 'organizations.id', 'payment_methods.organization_id')
      .select(['payment_methods.id', 'payment_methods.provider_payment_method_id'])
      .where('organizations.slug', '=', 'acme-pro')
      .where('payment_methods.is_default', '=', true)
      .executeTakeFirstOrThrow();
    const client = visitor(4);
    for (const [n, pm] of [saved.id, saved.provider_payment_method_id].entries()) {
      const answer = await pay(client, invoiceId, key, pm, `saved-${n}`);
      expect(answer.status).toBe(404);
    }
    expect(await linkState(invoiceId)).toMatchObject({
      status: 'open',
      succeeded: 0,
    });
    const charges = await db()
      .selectFrom('charges')
      .select('id')
      .where('invoice_id', '=', invoiceId)
      .where('idempotency_key', 'like', '%:link:%')
      .execute();
    expect(charges).toHaveLength(0);
  });

  it('a declined card leaves it open; 3-D Secure completes through the same request', async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-team', 0);
    const key = await keyOf(invoiceId);
    const client = visitor(5);
    const declined = await pay(
      client,
      invoiceId,
      key,
      await paymentMethod(client, CARDS.declined),
      'd1',
    );
    expect(declined).toMatchObject({ status: 402, body: { message: 'Your card was declined.' } });
    expect(await linkState(invoiceId)).toMatchObject({
      status: 'open',
      succeeded: 0,
    });

    const pm = await paymentMethod(client, CARDS.authenticate);
    const first = await pay(client, invoiceId, key, pm, 'secure');
    expect(first.body.status).toBe('requires_action');
    const confirmed = await confirmPayment(client, first.body.payment_intent_secret ?? '');
    await answerChallenge(client, confirmed.body.challenge?.id ?? '', 'complete');
    const settled = await pay(client, invoiceId, key, pm, 'secure');
    expect(settled.body.status).toBe('succeeded');
    expect(await linkState(invoiceId)).toMatchObject({
      status: 'paid',
      succeeded: 1,
    });
    const shown = payLinkInvoiceSchema.parse((await show(client, invoiceId, key)).body);
    expect(shown.invoice.status).toBe('paid');
    expect((await pay(client, invoiceId, key, pm, 'again')).status).toBe(409);

    // What the provider said afterwards (a refund, a dispute) is the members' to read, not the link's.
    const charge = await db()
      .updateTable('charges')
      .set({ amount_refunded_cents: 100 })
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'succeeded')
      .returning(['id', 'organization_id', 'amount_cents'])
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('charge_disputes')
      .values({
        id: newId('dp'),
        provider: 'simulator',
        provider_dispute_id: `dp_link_${invoiceId}`,
        organization_id: charge.organization_id,
        charge_id: charge.id,
        invoice_id: invoiceId,
        amount_cents: charge.amount_cents,
        reason: 'fraudulent',
        status: 'needs_response',
        closed_at: null,
        opened_at: new Date(),
        provider_updated_at: new Date(),
      })
      .execute();
    const after = payLinkInvoiceSchema.parse((await show(client, invoiceId, key)).body);
    expect(after.invoice.amount_refunded).toBe(0);
    expect(after.invoice.disputes).toEqual([]);
  });

  it('restricted-co: paid with a new card by the link alone, once, and the restriction lifted', async () => {
    const invoiceId = await openInvoice('restricted-co');
    const key = await keyOf(invoiceId);
    const client = visitor(6);
    const pm = await paymentMethod(client, CARDS.visa);
    const answers = await Promise.all([
      pay(client, invoiceId, key, pm, 'link-a'),
      pay(client, invoiceId, key, pm, 'link-a'),
    ]);
    expect(SUCCEEDED_ONCE).toContainEqual(doubleSubmitAnswers(answers));
    expect(await linkState(invoiceId)).toMatchObject({
      status: 'paid',
      succeeded: 1,
    });
    const charge = await db()
      .selectFrom('charges')
      .select(['created_by', 'payment_method_id', 'status'])
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    expect(charge).toEqual({ created_by: null, payment_method_id: null, status: 'succeeded' });
    const organization = await as('owner').get<{ restriction_status: string | null }>(
      '/platform/organizations/restricted-co',
    );
    expect(organization.body.restriction_status).toBeNull();
    // The audit log names the link as the payer, once.
    const audited = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_id'])
      .where('actor_type', '=', 'pay_link')
      .where('actor_id', '=', invoiceId)
      .execute();
    expect(audited).toHaveLength(1);
    // The card was charged, not saved.
    const saved = await db()
      .selectFrom('payment_methods')
      .select('id')
      .where('provider_payment_method_id', '=', pm)
      .execute();
    expect(saved).toHaveLength(0);
  });

  it(`starts at most ${PAY_LINK_ATTEMPTS_PER_HOUR} payments an hour through one link`, async () => {
    const invoiceId = await reopenInvoice(db(), 'acme-team', 1);
    const key = await keyOf(invoiceId);
    const client = visitor(7);
    const pm = await paymentMethod(client, CARDS.declined);
    for (let n = 0; n < PAY_LINK_ATTEMPTS_PER_HOUR; n += 1) {
      expect((await pay(client, invoiceId, key, pm, `try-${n}`)).status).toBe(402);
    }
    // Then refused, also when sent all at once; the attempts already made answer as they did.
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, n) => pay(client, invoiceId, key, pm, `more-${n}`)),
    );
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 429, body: { message: PAY_LINK_TOO_MANY_ATTEMPTS } });
    }
    expect((await pay(client, invoiceId, key, pm, 'try-0')).status).toBe(402);
    expect(await linkState(invoiceId)).toMatchObject({
      status: 'open',
      charges: PAY_LINK_ATTEMPTS_PER_HOUR,
      succeeded: 0,
    });
  });
});
