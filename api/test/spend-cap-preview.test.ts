import {
  invoiceListSchema,
  SAME_PLAN_MESSAGE,
  SPEND_CAP_PRO_ONLY_MESSAGE,
  spendCapPreviewSchema,
  subscriptionSchema,
  type SubscriptionUpdateResponse,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const KEY = 'test-metering-key-0123456789';
const GB = 1e9;
const base = (slug: string) => `/platform/organizations/${slug}/billing`;

/**
 * Turning the spend cap on shows its amount before the click: the preview is priced
 * as the toggle is, kept as a quote, and the toggle sent back with its proration date is charged what
 * it showed, to the cent, even when usage stamped before that moment arrives in between.
 */
describe.each(testDatabases())('the spend cap preview (%s)', (database) => {
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
  const preview = (slug: string, spendCap: boolean, client = owner) =>
    client.request('POST', `${base(slug)}/spend-cap/preview`, { spend_cap: spendCap });
  const toggle = (slug: string, body: Record<string, unknown>, key: string) =>
    owner.request<SubscriptionUpdateResponse>('PUT', `${base(slug)}/subscription`, body, {
      'Idempotency-Key': key,
    });
  const invoices = async (slug: string) =>
    invoiceListSchema.parse((await owner.get(`${base(slug)}/invoices?offset=0&limit=20`)).body);
  const sendEgress = async (id: string, gigabytes: number, timestamp: number) => {
    const response = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({
        events: [
          { id, project_ref: 'paygco1', metric: 'EGRESS', usage: gigabytes * GB, timestamp },
        ],
      }),
    });
    expect(response.status).toBe(200);
  };

  it('refuses the preview where the toggle is refused', async () => {
    expect(await preview('acme-free', true)).toMatchObject({
      status: 409,
      body: { message: SPEND_CAP_PRO_ONLY_MESSAGE },
    });
    expect(await preview('acme-pro', true)).toMatchObject({
      status: 409,
      body: { message: SAME_PLAN_MESSAGE },
    });
    expect((await preview('payg-co', true, developer)).status).toBe(403);
  });

  it('payg-co: the toggle sent back with the preview is charged what the preview showed, to the cent', async () => {
    const answer = await preview('payg-co', true);
    expect(answer.status).toBe(200);
    const shown = spendCapPreviewSchema.parse(answer.body);
    expect(shown).toMatchObject({ spend_cap: true, tier: 'tier_pro', billed_via_partner: false });
    expect(shown.payment_method?.last4).toBe('4242');
    expect(shown.charge_today).toBeGreaterThan(0);
    expect(shown.total).toBe(shown.lines.reduce((sum, line) => sum + line.total_price, 0));
    expect(shown.charge_today).toBe(shown.total - shown.credit_applied);
    // Nothing is written by a preview: the cap is still off.
    const before = subscriptionSchema.parse(
      (await owner.get(`${base('payg-co')}/subscription`)).body,
    );
    expect(before.usage_billing_enabled).toBe(true);

    // Usage stamped before the quote arrives while the owner reads it: the quote still holds.
    later(60);
    await sendEgress('late-for-the-quote', 50, shown.proration_date - 1);
    const invoicesBefore = (await invoices('payg-co')).length;
    const on = await toggle(
      'payg-co',
      { tier: shown.tier, proration_date: shown.proration_date },
      'quoted-on',
    );
    expect(on.status).toBe(200);
    expect(on.body.status).toBe('applied');
    const issued = await invoices('payg-co');
    expect(issued).toHaveLength(invoicesBefore + 1);
    expect(issued[0]?.amount_due).toBe(shown.charge_today);
    const charge = await server.database.db
      .selectFrom('charges')
      .select(['amount_cents', 'status'])
      .where('purpose', '=', 'plan_change')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect([charge.status, Number(charge.amount_cents)]).toEqual(['succeeded', shown.charge_today]);

    // Turning it off again: nothing due now; a proration date no preview answered is refused.
    later(60);
    const off = await toggle(
      'payg-co',
      { tier: 'tier_payg', proration_date: Math.floor(clock.now().getTime() / 1000) - 5 },
      'unquoted-off',
    );
    expect(off.status).toBe(409);
    const offPreview = spendCapPreviewSchema.parse((await preview('payg-co', false)).body);
    expect(offPreview).toMatchObject({ spend_cap: false, charge_today: 0, lines: [] });
  });
});
