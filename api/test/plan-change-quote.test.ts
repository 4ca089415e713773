import {
  invoiceDetailSchema,
  upcomingInvoiceSchema,
  type SubscriptionPreview,
  type SubscriptionUpdateResponse,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { SUBSCRIPTION_MOVED_MESSAGE } from '../src/services/plan-changes/change-rules.ts';
import { CARDS, addCard, organizationIdOf } from './support/payments.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const KEY = 'test-metering-key-0123456789';
const GB = 1e9;
const base = '/platform/organizations/payg-co/billing';

/**
 * Product-decisions §9: the preview the customer saw is what the change charges, to the cent. payg-co
 * (Pro, spend cap off, egress already beyond its quota) previews Team; meanwhile 500 GB of egress stamped
 * before the preview's proration date arrives. The change sent back with that date is charged the
 * preview; the 500 GB (9¢ a GB, $45.00) is billed by the next invoice as late usage of the ended cycle.
 */
describe.each(testDatabases())('the preview is the charge (%s)', (database) => {
  const clock = fixedClock(new Date('2026-11-20T12:00:00Z'));
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database, clock, env: { METERING_API_KEY: KEY } });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const preview = () =>
    owner.post<SubscriptionPreview>(
      `${base}/subscription/preview`,
      { tier: 'tier_team' },
      {
        Version: '2',
      },
    );
  const egressOf = (priced: SubscriptionPreview) =>
    priced.breakdown.find((line) => line.description.startsWith('Egress'))?.total_price ?? 0;
  const later = (seconds: number) => clock.set(new Date(clock.now().getTime() + seconds * 1000));

  it('charges the preview although usage before its proration date arrived since; the next invoice bills that usage late', async () => {
    const card = await addCard(owner, 'payg-co', CARDS.visa);
    const quoted = await preview();
    expect(quoted.status).toBe(200);
    expect(quoted.body.plan_change_type).toBe('upgrade');
    expect(quoted.body.charge_today).toBeGreaterThan(0);

    later(30);
    const sent = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({
        events: [
          {
            id: 'before-the-change',
            project_ref: 'paygco1',
            metric: 'EGRESS',
            usage: 500 * GB,
            timestamp: quoted.body.proration_date - 60,
          },
        ],
      }),
    });
    expect(sent.status).toBe(200);
    // A preview made now prices those 500 GB: the quote must not have been re-priced to that.
    const fresh = await preview();
    expect(egressOf(fresh.body) - egressOf(quoted.body)).toBe(4500);
    expect(fresh.body.total - quoted.body.total).toBe(4500);

    later(30);
    const done = await owner.request<SubscriptionUpdateResponse>(
      'PUT',
      `${base}/subscription`,
      { tier: 'tier_team', payment_method: card, proration_date: quoted.body.proration_date },
      { 'Idempotency-Key': 'quoted-team' },
    );
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('applied');

    const db = server.database.db;
    const organizationId = await organizationIdOf(db, 'payg-co');
    const charges = await db
      .selectFrom('charges')
      .select(['status', 'amount_cents'])
      .where('organization_id', '=', organizationId)
      .where('purpose', '=', 'plan_change')
      .execute();
    expect(charges.map((charge) => [charge.status, Number(charge.amount_cents)])).toEqual([
      ['succeeded', quoted.body.charge_today],
    ]);
    const change = await db
      .selectFrom('plan_changes')
      .select('invoice_id')
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    const invoice = invoiceDetailSchema.parse(
      (await owner.get(`${base}/invoices/${change.invoice_id ?? ''}`)).body,
    );
    expect(invoice.lines.map((line) => [line.description, line.amount])).toEqual(
      quoted.body.breakdown.map((line) => [line.description, line.total_price]),
    );

    // The 500 GB are the ended cycle's, billed once, by the next invoice.
    const upcoming = upcomingInvoiceSchema.parse(
      (await owner.get(`${base}/invoices/upcoming`)).body,
    );
    const late = upcoming.lines.filter((line) => line.description.startsWith('Egress (late usage'));
    expect(late.map((line) => line.amount)).toEqual([4500]);
  });

  it("refuses a quote priced against another balance than today's, charging nothing: the customer previews again", async () => {
    const db = server.database.db;
    const organizationId = await organizationIdOf(db, 'acme-pro');
    const quoted = await owner.post<SubscriptionPreview>(
      '/platform/organizations/acme-pro/billing/subscription/preview',
      { tier: 'tier_team' },
      { Version: '2' },
    );
    expect(quoted.body.credit_applied).toBe(5000);
    // The $50 credit is spent elsewhere (an invoice paid from the balance) before the change comes back.
    await db
      .updateTable('subscriptions')
      .set({ customer_balance_cents: 0 })
      .where('organization_id', '=', organizationId)
      .execute();
    later(20);
    const refused = await owner.request<{ message: string }>(
      'PUT',
      '/platform/organizations/acme-pro/billing/subscription',
      { tier: 'tier_team', proration_date: quoted.body.proration_date },
      { 'Idempotency-Key': 'stale-quote' },
    );
    expect(refused).toMatchObject({ status: 409, body: { message: SUBSCRIPTION_MOVED_MESSAGE } });
    const changes = await db
      .selectFrom('plan_changes')
      .select('id')
      .where('organization_id', '=', organizationId)
      .execute();
    expect(changes).toEqual([]);
    const charges = await db
      .selectFrom('charges')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('purpose', '=', 'plan_change')
      .execute();
    expect(charges).toEqual([]);
  });

  it('charges a member only their own preview, and refuses a change priced before the spend cap moved', async () => {
    const admin = await server.signIn('admin@example.com');
    const put = (
      client: TestClient,
      body: Record<string, unknown>,
      key: string,
      slug = 'acme-team',
    ) =>
      client.request<{ message: string; status: string }>(
        'PUT',
        `/platform/organizations/${slug}/billing/subscription`,
        body,
        { 'Idempotency-Key': key },
      );
    later(5);
    const quoted = await owner.post<SubscriptionPreview>(
      '/platform/organizations/acme-team/billing/subscription/preview',
      { tier: 'tier_payg' },
      { Version: '2' },
    );
    expect(quoted.status).toBe(200);
    // Another member cannot be charged a preview they did not see.
    expect(
      await put(admin, { tier: 'tier_payg', proration_date: quoted.body.proration_date }, 'admin'),
    ).toMatchObject({ status: 409, body: { message: SUBSCRIPTION_MOVED_MESSAGE } });

    // acme-pro (cap on) previews Team, then turns the cap off and on again: the same plan, setting and
    // balance, but the quote was priced against another cap history.
    later(5);
    const team = await owner.post<SubscriptionPreview>(
      '/platform/organizations/acme-pro/billing/subscription/preview',
      { tier: 'tier_team' },
      { Version: '2' },
    );
    expect(team.status).toBe(200);
    const off = await owner.request<{ status: string }>(
      'PUT',
      '/platform/organizations/acme-pro/billing/subscription',
      { tier: 'tier_payg' },
      { 'Idempotency-Key': 'acme-pro-off' },
    );
    expect(off.body.status).toBe('applied');
    const on = await owner.request<{ status: string }>(
      'PUT',
      '/platform/organizations/acme-pro/billing/subscription',
      { tier: 'tier_pro' },
      { 'Idempotency-Key': 'acme-pro-on' },
    );
    expect(on.body.status).toBe('applied');
    expect(
      await put(
        owner,
        { tier: 'tier_team', proration_date: team.body.proration_date },
        'stale',
        'acme-pro',
      ),
    ).toMatchObject({ status: 409, body: { message: SUBSCRIPTION_MOVED_MESSAGE } });
    // A toggle happens now, whatever date it is sent with.
    const organizationId = await organizationIdOf(server.database.db, 'acme-pro');
    const toggles = await server.database.db
      .selectFrom('spend_cap_toggles')
      .select('at')
      .where('organization_id', '=', organizationId)
      .orderBy('at')
      .execute();
    expect(toggles.map((row) => row.at.getTime())).toEqual([
      clock.now().getTime(),
      clock.now().getTime(),
    ]);
  });

  it('refuses a second change in the second the first one started the cycle', async () => {
    later(5);
    const first = await owner.request<{ status: string }>(
      'PUT',
      '/platform/organizations/acme-team/billing/subscription',
      { tier: 'tier_payg' },
      { 'Idempotency-Key': 'team-to-pro' },
    );
    expect(first.body.status).toBe('applied');
    const second = await owner.request<{ message: string }>(
      'PUT',
      '/platform/organizations/acme-team/billing/subscription',
      { tier: 'tier_team' },
      { 'Idempotency-Key': 'pro-to-team-same-second' },
    );
    expect(second).toMatchObject({ status: 409, body: { message: SUBSCRIPTION_MOVED_MESSAGE } });
  });
});
