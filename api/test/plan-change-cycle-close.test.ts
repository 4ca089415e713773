import {
  cycleClosingMessage,
  type SubscriptionPreview,
  type SubscriptionUpdateResponse,
  type Subscription,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { CARDS, addCard, organizationIdOf } from './support/payments.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const base = (slug: string) => `/platform/organizations/${slug}/billing`;
const GRACE_MINUTES = 60;

/**
 * Product-decisions §15: between a cycle's end and its close (the billing job closes it only
 * BILLING_CLOSE_GRACE_MINUTES after its end, decision 005) a preview, a change or a toggle of the spend
 * cap never answers 5xx: it is refused with 409 saying when to try again, and changes nothing. A change
 * that sends back a preview taken inside the cycle (its proration date before the end, at most 10
 * minutes old) is still charged that preview, to the cent.
 */
describe.each(testDatabases())('a change while the ended cycle closes (%s)', (database) => {
  const clock = fixedClock(new Date('2026-11-20T12:00:00Z'));
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({
      database,
      clock,
      // The clock jumps to cycle ends weeks ahead: the session outlives them.
      env: { SESSION_TTL_HOURS: String(24 * 90) },
    });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const subscription = async (slug: string) =>
    (await owner.get<Subscription>(`${base(slug)}/subscription`)).body;
  const preview = (slug: string, tier: string) =>
    owner.post<SubscriptionPreview & { message: string }>(
      `${base(slug)}/subscription/preview`,
      { tier },
      { Version: '2' },
    );
  const change = (slug: string, body: Record<string, unknown>) =>
    owner.request<SubscriptionUpdateResponse & { message: string }>(
      'PUT',
      `${base(slug)}/subscription`,
      body,
    );
  const at = (seconds: number) => clock.set(new Date(seconds * 1000));
  const planChanges = async (slug: string) =>
    db()
      .selectFrom('plan_changes')
      .select(['status', 'charge_today_cents'])
      .where('organization_id', '=', await organizationIdOf(db(), slug))
      .execute();

  it('acme-pro: a preview, a change and a spend-cap toggle are refused with 409 and when to try again; after the close they work', async () => {
    const card = await addCard(owner, 'acme-pro', CARDS.visa);
    const before = await subscription('acme-pro');
    const end = before.current_period_end;
    at(end + 20 * 60);
    const expected = cycleClosingMessage(end, end + GRACE_MINUTES * 60, end + 20 * 60);
    expect(expected).toContain('Try the change again after');

    const refusals = [
      await preview('acme-pro', 'tier_team'),
      await change('acme-pro', { tier: 'tier_team', payment_method: card }),
      // A proration date at the cycle's end or after it was never a preview's.
      await change('acme-pro', { tier: 'tier_team', payment_method: card, proration_date: end }),
      // The spend cap's toggle (Pro, cap on → off).
      await change('acme-pro', { tier: 'tier_payg' }),
      await preview('acme-pro', 'tier_free'),
    ];
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ status: 409, body: { message: expected } });
    }
    expect(await subscription('acme-pro')).toEqual(before);
    expect(await planChanges('acme-pro')).toEqual([]);

    // The billing job closes the cycle at end + grace: from then on the change is priced as usual.
    const closeAt = new Date((end + GRACE_MINUTES * 60) * 1000);
    at(end + GRACE_MINUTES * 60);
    await runBillingJobs(
      { db: db(), gateway: server.gateway, clock: { now: () => closeAt } },
      closeAt,
      await organizationIdOf(db(), 'acme-pro'),
      GRACE_MINUTES,
    );
    expect((await subscription('acme-pro')).current_period_start).toBe(end);
    const priced = await preview('acme-pro', 'tier_team');
    expect(priced.status).toBe(200);
    const toggled = await change('acme-pro', { tier: 'tier_payg' });
    expect(toggled.status).toBe(200);
  });

  it('once the close is overdue (the job has not run), the refusal says to try again in a few minutes', async () => {
    const { current_period_end: end } = await subscription('idle-co');
    at(end + 2 * GRACE_MINUTES * 60);
    const refused = await preview('idle-co', 'tier_team');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      cycleClosingMessage(end, end + GRACE_MINUTES * 60, end + 2 * GRACE_MINUTES * 60),
    );
    expect(refused.body.message).toMatch(/in a few minutes\.$/);
  });

  it('fly-co: a downgrade scheduled for the cycle end is refused too while the ended cycle closes', async () => {
    const before = await subscription('fly-co');
    const end = before.current_period_end;
    at(end + 5 * 60);
    const refused = await change('fly-co', { tier: 'tier_free' });
    expect(refused).toMatchObject({
      status: 409,
      body: { message: cycleClosingMessage(end, end + GRACE_MINUTES * 60, end + 5 * 60) },
    });
    expect((await subscription('fly-co')).scheduled_plan_change).toBeNull();
  });

  it('payg-co: a preview taken 2 minutes before the end, sent back 4 minutes after it, is charged that preview', async () => {
    const card = await addCard(owner, 'payg-co', CARDS.visa);
    const { current_period_end: end } = await subscription('payg-co');
    at(end - 120);
    const quoted = await preview('payg-co', 'tier_team');
    expect(quoted.status).toBe(200);
    expect(quoted.body.proration_date).toBe(end - 120);
    expect(quoted.body.charge_today).toBeGreaterThan(0);

    at(end + 240);
    const done = await change('payg-co', {
      tier: 'tier_team',
      payment_method: card,
      proration_date: quoted.body.proration_date,
    });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('applied');
    expect(await planChanges('payg-co')).toEqual([
      { status: 'applied', charge_today_cents: quoted.body.charge_today },
    ]);
    const charges = await db()
      .selectFrom('charges')
      .select(['status', 'amount_cents'])
      .where('organization_id', '=', await organizationIdOf(db(), 'payg-co'))
      .where('purpose', '=', 'plan_change')
      .execute();
    expect(charges.map((charge) => [charge.status, Number(charge.amount_cents)])).toEqual([
      ['succeeded', quoted.body.charge_today],
    ]);
    expect((await subscription('payg-co')).plan.id).toBe('team');
  });
});
