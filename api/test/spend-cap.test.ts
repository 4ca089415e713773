import {
  CAPPED_METRICS,
  invoiceDetailSchema,
  invoiceListSchema,
  SPEND_CAP_MARKETPLACE_MESSAGE,
  SPEND_CAP_PRO_ONLY_MESSAGE,
  subscriptionSchema,
  upcomingInvoiceSchema,
  type SubscriptionUpdateResponse,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { insertPaymentMethod } from '../src/repositories/payment-methods.ts';
import { newId } from '../src/lib/ids.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../src/lib/close-grace.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { CARDS, addCard, organizationIdOf } from './support/payments.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const KEY = 'test-metering-key-0123456789';
const GB = 1e9;
const base = (slug: string) => `/platform/organizations/${slug}/billing`;
const capped = new Set<string>(CAPPED_METRICS);

/**
 * The spend cap's toggle (product-decisions §10): a toggle moves no cycle; turning the cap on
 * invoices at once the overage accrued while it was off; turning it off bills only the excess that
 * accrues afterwards; no overage is billed twice across toggles and the close.
 */
describe.each(testDatabases())('the spend cap toggle (%s)', (database) => {
  const clock = fixedClock(new Date('2026-11-20T12:00:00Z'));
  let server: TestServer;
  let owner: TestClient;
  let developer: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database, clock, env: { METERING_API_KEY: KEY } });
    owner = await server.signIn('owner@example.com');
    developer = await server.signIn('developer@example.com');
  });
  afterAll(() => server.close());

  const later = (seconds: number) => clock.set(new Date(clock.now().getTime() + seconds * 1000));
  const toggle = (
    slug: string,
    tier: 'tier_pro' | 'tier_payg' | 'tier_team',
    key: string,
    client = owner,
    paymentMethod?: string,
  ) =>
    client.request<SubscriptionUpdateResponse & { message: string }>(
      'PUT',
      `${base(slug)}/subscription`,
      paymentMethod ? { tier, payment_method: paymentMethod } : { tier },
      { 'Idempotency-Key': key },
    );
  const upcoming = async (slug: string) =>
    upcomingInvoiceSchema.parse((await owner.get(`${base(slug)}/invoices/upcoming`)).body);
  const subscription = async (slug: string) =>
    subscriptionSchema.parse((await owner.get(`${base(slug)}/subscription`)).body);
  const invoices = async (slug: string) =>
    invoiceListSchema.parse((await owner.get(`${base(slug)}/invoices?offset=0&limit=20`)).body);
  const cappedLines = (lines: { usage_metric: string | null; amount: number }[]) =>
    lines.filter((line) => line.usage_metric !== null && capped.has(line.usage_metric));
  const sendEgress = async (id: string, gigabytes: number) => {
    const response = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({
        events: [
          {
            id,
            project_ref: 'paygco1',
            metric: 'EGRESS',
            usage: gigabytes * GB,
            timestamp: Math.floor(clock.now().getTime() / 1000) - 1,
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
  };

  it('acme-pro: turning the cap off issues no invoice and bills nothing now', async () => {
    const invoicesBefore = (await invoices('acme-pro')).length;
    const total = (await upcoming('acme-pro')).amount_total;
    const off = await toggle('acme-pro', 'tier_payg', 'acme-off');
    expect(off.body).toMatchObject({
      status: 'applied',
      message: 'Successfully disabled spend cap',
    });
    expect((await subscription('acme-pro')).usage_billing_enabled).toBe(true);
    expect(await invoices('acme-pro')).toHaveLength(invoicesBefore);
    expect((await upcoming('acme-pro')).amount_total).toBe(total);
  });

  it('refuses the toggle where §10 refuses it', async () => {
    expect((await toggle('aws-co', 'tier_payg', 'aws-off')).body).toMatchObject({
      message: SPEND_CAP_MARKETPLACE_MESSAGE,
    });
    expect((await toggle('aws-co', 'tier_payg', 'aws-off')).status).toBe(409);
    expect((await toggle('acme-pro', 'tier_pro', 'dev-on', developer)).status).toBe(403);
    // Free cannot turn the cap off (its upgrade is the Pro tier); Team keeps it off.
    expect(await toggle('acme-free', 'tier_payg', 'free-off')).toMatchObject({
      status: 409,
      body: { message: SPEND_CAP_PRO_ONLY_MESSAGE },
    });
    expect((await subscription('acme-free')).plan.id).toBe('free');
    expect(await toggle('acme-team', 'tier_team', 'team-same')).toMatchObject({
      status: 409,
    });
  });

  it('payg-co: turning the cap on invoices exactly the overage shown, once; turning it off moves no total; the close bills only what came after', async () => {
    // Payment before change: a declined card leaves the cap off, with no invoice and no toggle.
    // The simulator's declining card, saved as an older card would be (it declines every charge).
    const card = await server.gateway.createCard({
      number: CARDS.declined,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: '123',
    });
    const declining = newId('pm');
    await insertPaymentMethod(server.database.db, {
      id: declining,
      organizationId: await organizationIdOf(server.database.db, 'payg-co'),
      provider: server.gateway.provider,
      providerPaymentMethodId: card.providerPaymentMethodId,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      isDefault: false,
    });
    const declined = await toggle('payg-co', 'tier_pro', 'cap-on-declined', owner, declining);
    expect(declined.status).toBe(402);
    expect((await subscription('payg-co')).usage_billing_enabled).toBe(true);
    const toggles = await server.database.db
      .selectFrom('spend_cap_toggles')
      .select('id')
      .where('organization_id', '=', await organizationIdOf(server.database.db, 'payg-co'))
      .execute();
    expect(toggles).toEqual([]);
    const visa = await addCard(owner, 'payg-co', CARDS.visa);
    const before = await upcoming('payg-co');
    const overage = cappedLines(before.lines);
    expect(overage.length).toBeGreaterThan(0);
    const overageTotal = overage.reduce((sum, line) => sum + line.amount, 0);
    const balance = Math.max(0, (await subscription('payg-co')).customer_balance);
    const invoicesBefore = (await invoices('payg-co')).length;
    const cycleBefore = await subscription('payg-co');

    later(10);
    const on = await toggle('payg-co', 'tier_pro', 'cap-on-1', owner, visa);
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ status: 'applied', message: 'Successfully enabled spend cap' });
    const afterOn = await subscription('payg-co');
    expect(afterOn.usage_billing_enabled).toBe(false);
    // A toggle moves no cycle.
    expect(afterOn.current_period_start).toBe(cycleBefore.current_period_start);
    expect(afterOn.current_period_end).toBe(cycleBefore.current_period_end);
    const issued = await invoices('payg-co');
    expect(issued).toHaveLength(invoicesBefore + 1);
    const [toggleInvoice] = issued;
    expect(toggleInvoice).toMatchObject({ status: 'paid', subtotal: overageTotal });
    expect(toggleInvoice?.amount_due).toBe(overageTotal - Math.min(balance, overageTotal));
    const detail = invoiceDetailSchema.parse(
      (await owner.get(`${base('payg-co')}/invoices/${toggleInvoice?.id ?? ''}`)).body,
    );
    expect(detail.lines.map((line) => [line.usage_metric, line.amount])).toEqual(
      overage.map((line) => [line.usage_metric, line.amount]),
    );
    const organizationId = await organizationIdOf(server.database.db, 'payg-co');
    const charges = await server.database.db
      .selectFrom('charges')
      .select(['status', 'amount_cents'])
      .where('organization_id', '=', organizationId)
      .where('purpose', '=', 'plan_change')
      .orderBy('created_at')
      .execute();
    expect(charges.map((charge) => [charge.status, Number(charge.amount_cents)])).toEqual([
      ['failed', overageTotal - Math.min(balance, overageTotal)],
      ['succeeded', overageTotal - Math.min(balance, overageTotal)],
    ]);
    // The upcoming invoice has no capped overage any more; the same key again charges nothing more.
    expect(cappedLines((await upcoming('payg-co')).lines)).toEqual([]);
    expect((await toggle('payg-co', 'tier_pro', 'cap-on-1', owner, visa)).body.status).toBe(
      'applied',
    );
    expect(await invoices('payg-co')).toHaveLength(invoicesBefore + 1);

    // With the cap on, usage beyond the quota is not billed.
    later(10);
    await sendEgress('while-capped', 100);
    const whileCapped = await upcoming('payg-co');
    expect(cappedLines(whileCapped.lines)).toEqual([]);

    // Off again: the total does not move at that moment, and no invoice is issued.
    later(10);
    const off = await toggle('payg-co', 'tier_payg', 'cap-off-1');
    expect(off.body).toMatchObject({
      status: 'applied',
      message: 'Successfully disabled spend cap',
    });
    expect((await upcoming('payg-co')).amount_total).toBe(whileCapped.amount_total);
    expect(await invoices('payg-co')).toHaveLength(invoicesBefore + 1);

    // 200 GB more with the cap off: only they are billed, at 9¢ a GB.
    later(10);
    await sendEgress('after-off', 200);
    const afterOff = await upcoming('payg-co');
    expect(cappedLines(afterOff.lines).map((line) => [line.usage_metric, line.amount])).toEqual([
      ['EGRESS', 1800],
    ]);
    expect(afterOff.amount_total - whileCapped.amount_total).toBe(1800);

    // The close bills those 200 GB and nothing billed before.
    const end = new Date(afterOn.current_period_end * 1000 + DEFAULT_CLOSE_GRACE_MINUTES * 60_000);
    clock.set(end);
    const run = await runBillingJobs(
      { db: server.database.db, gateway: server.gateway, clock },
      end,
      organizationId,
    );
    expect(run.errors).toEqual([]);
    expect(run.closed).toHaveLength(1);
    const closed = await server.database.db
      .selectFrom('invoices')
      .select('id')
      .where('organization_id', '=', organizationId)
      .orderBy('sequence', 'desc')
      .executeTakeFirstOrThrow();
    owner = await server.signIn('owner@example.com');
    const closing = invoiceDetailSchema.parse(
      (await owner.get(`${base('payg-co')}/invoices/${closed.id}`)).body,
    );
    expect(cappedLines(closing.lines).map((line) => [line.usage_metric, line.amount])).toEqual([
      ['EGRESS', 1800],
    ]);
  });
});
