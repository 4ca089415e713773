import type { SubscriptionPreview, SubscriptionUpdateResponse } from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { reconcileStaleCharges } from '../src/services/charges/reconcile-charges.ts';
import {
  CARDS,
  addCard,
  addDecliningDefaultCard,
  answerChallenge,
  confirmPayment,
  organizationIdOf,
} from './support/payments.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const base = (slug: string) => `/platform/organizations/${slug}`;

/** The billing details a change may carry, and how the profile reads once they are saved. */
const DETAILS = {
  billing_name: 'Harbour Holdings Ltd.',
  address: { line1: '5 Harbour Road', city: 'Cork', postal_code: 'T12 X', country: 'ie' },
  tax_id: { type: 'eu_vat', value: '6388047V' },
};
const SAVED = {
  billing_name: 'Harbour Holdings Ltd.',
  address: { line1: '5 Harbour Road', city: 'Cork', postal_code: 'T12 X', country: 'IE' },
};
const SAVED_TAX_ID = { tax_id: { type: 'eu_vat', value: 'IE6388047V', country: 'IE' } };

/**
 * Product-decisions §15: the billing name, address and tax ID sent with a plan change are saved in the
 * transaction that records its payment as succeeded (or, nothing due, the one that applies it); a
 * declined change, or one whose 3-D Secure is abandoned, writes none of them.
 */
describe.each(testDatabases())('billing details sent with a plan change (%s)', (database) => {
  const clock = fixedClock(new Date('2026-11-20T12:00:00Z'));
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database, clock });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const change = (slug: string, body: Record<string, unknown>, key: string) =>
    owner.request<SubscriptionUpdateResponse & { message: string }>(
      'PUT',
      `${base(slug)}/billing/subscription`,
      body,
      { 'Idempotency-Key': key },
    );
  /** What the organization's profile says: name and address, tax ID, and their audit entries. */
  const profile = async (slug: string) => {
    const organizationId = await organizationIdOf(db(), slug);
    const audited = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('organization_id', '=', organizationId)
      .where('action', 'in', ['customer.updated', 'tax_id.set'])
      .execute();
    return {
      customer: (await owner.get(`${base(slug)}/customer`)).body,
      taxId: (await owner.get(`${base(slug)}/tax-ids`)).body,
      audited: audited.map((row) => row.action).sort(),
    };
  };
  const changeStatuses = async (slug: string) =>
    (
      await db()
        .selectFrom('plan_changes')
        .select(['status', 'created_at'])
        .where('organization_id', '=', await organizationIdOf(db(), slug))
        .orderBy('created_at')
        .execute()
    ).map((row) => row.status);

  it('a declined card (4000 0000 0000 0002) saves nothing of what the change carried', async () => {
    await addDecliningDefaultCard(server, await organizationIdOf(db(), 'idle-co'));
    const before = await profile('idle-co');
    expect(before.customer).not.toMatchObject(SAVED);
    const declined = await change(
      'idle-co',
      { tier: 'tier_team', ...DETAILS },
      'declined-with-details',
    );
    expect(declined.status).toBe(402);
    expect(declined.body.message).toMatch(/declined/i);
    expect(await changeStatuses('idle-co')).toEqual(['failed']);
    expect(await profile('idle-co')).toEqual(before);
  });

  it('3-D Secure: nothing is saved while it waits nor when it is abandoned; completed, the details are saved with the payment and are on the change invoice', async () => {
    const card = await addCard(owner, 'acme-pro', CARDS.alwaysAuthenticate);
    const before = await profile('acme-pro');
    expect(before.customer).not.toMatchObject(SAVED);

    const abandoned = await change(
      'acme-pro',
      { tier: 'tier_team', payment_method: card, ...DETAILS },
      'abandoned-with-details',
    );
    expect(abandoned.body.status).toBe('requires_action');
    expect(await profile('acme-pro')).toEqual(before);
    // Never confirmed: past its hour the billing job's reconciliation ends it.
    clock.advance(2 * 60 * 60);
    await reconcileStaleCharges({ db: db(), gateway: server.gateway, clock });
    expect(await changeStatuses('acme-pro')).toEqual(['expired']);
    expect(await profile('acme-pro')).toEqual(before);

    const asked = await change(
      'acme-pro',
      { tier: 'tier_team', payment_method: card, ...DETAILS },
      'confirmed-with-details',
    );
    expect(asked.body.status).toBe('requires_action');
    expect(await profile('acme-pro')).toEqual(before);
    const challenge = await confirmPayment(owner, asked.body.pending_payment_intent_secret ?? '');
    await answerChallenge(owner, challenge.body.challenge?.id ?? '', 'complete');
    const confirmed = await owner.post(`${base('acme-pro')}/billing/subscription/confirm`, {
      payment_intent_id: asked.body.payment_intent_id,
    });
    expect(confirmed.status).toBe(200);
    const after = await profile('acme-pro');
    expect(after.customer).toMatchObject(SAVED);
    expect(after.taxId).toEqual(SAVED_TAX_ID);
    expect(after.audited).toEqual([...before.audited, 'customer.updated', 'tax_id.set'].sort());

    const applied = await db()
      .selectFrom('plan_changes')
      .select('invoice_id')
      .where('organization_id', '=', await organizationIdOf(db(), 'acme-pro'))
      .where('status', '=', 'applied')
      .executeTakeFirstOrThrow();
    const invoice = await owner.get<{ billing_name: string; tax_id: unknown }>(
      `${base('acme-pro')}/billing/invoices/${applied.invoice_id ?? ''}`,
    );
    expect(invoice.body).toMatchObject({
      billing_name: SAVED.billing_name,
      tax_id: SAVED_TAX_ID.tax_id,
    });
  });

  it('the spend cap: turning it on with a declined card saves nothing; turning it off (nothing due) saves the details', async () => {
    await addDecliningDefaultCard(server, await organizationIdOf(db(), 'payg-co'));
    const before = await profile('payg-co');
    const declined = await change('payg-co', { tier: 'tier_pro', ...DETAILS }, 'cap-on-declined');
    expect(declined.status).toBe(402);
    expect(await profile('payg-co')).toEqual(before);

    const off = await change('crowded-co', { tier: 'tier_payg', ...DETAILS }, 'cap-off-details');
    expect(off.body.status).toBe('applied');
    const after = await profile('crowded-co');
    expect(after.customer).toMatchObject(SAVED);
    expect(after.taxId).toEqual(SAVED_TAX_ID);
  });

  it('nothing due (acme-team → Pro): applied at once, the details saved with it', async () => {
    const priced = await owner.post<SubscriptionPreview>(
      `${base('acme-team')}/billing/subscription/preview`,
      { tier: 'tier_payg' },
      { Version: '2' },
    );
    expect(priced.body.charge_today).toBe(0);
    const done = await change(
      'acme-team',
      { tier: 'tier_payg', proration_date: priced.body.proration_date, ...DETAILS },
      'nothing-due-with-details',
    );
    expect(done.body.status).toBe('applied');
    const after = await profile('acme-team');
    expect(after.customer).toMatchObject(SAVED);
    expect(after.taxId).toEqual(SAVED_TAX_ID);
  });
});
