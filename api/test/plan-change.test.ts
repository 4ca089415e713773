import {
  AWS_MARKETPLACE_MESSAGE,
  CHANGES_DISABLED_MESSAGE,
  ENTERPRISE_PLAN_MESSAGE,
  ORIOLE_PROJECT_MESSAGE,
  PAYMENT_METHOD_REQUIRED_MESSAGE,
  SAME_PLAN_MESSAGE,
  VERCEL_MARKETPLACE_MESSAGE,
  type SubscriptionPreview,
  type SubscriptionUpdateResponse,
  type Subscription,
  type Invoice,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import {
  CARDS,
  addCard,
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

const base = (slug: string) => `/platform/organizations/${slug}/billing`;

describe.each(testDatabases())('plan changes (%s)', (database) => {
  let server: TestServer;
  let owner: TestClient;
  let developer: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database });
    owner = await server.signIn('owner@example.com');
    developer = await server.signIn('developer@example.com');
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const preview = (slug: string, tier: string, client = owner) =>
    client.post<SubscriptionPreview & { message?: string }>(
      `${base(slug)}/subscription/preview`,
      { tier },
      { Version: '2' },
    );
  const change = (slug: string, body: Record<string, unknown>, key?: string, client = owner) =>
    client.request<SubscriptionUpdateResponse & { message: string }>(
      'PUT',
      `${base(slug)}/subscription`,
      body,
      key ? { 'Idempotency-Key': key } : {},
    );
  const subscription = async (slug: string) =>
    (await owner.get<Subscription>(`${base(slug)}/subscription`)).body;
  const invoices = async (slug: string) =>
    (await owner.get<Invoice[]>(`${base(slug)}/invoices?offset=0&limit=5`)).body;
  const chargesOf = async (slug: string) =>
    db()
      .selectFrom('charges')
      .selectAll()
      .where('organization_id', '=', await organizationIdOf(db(), slug))
      .where('purpose', '=', 'plan_change')
      .execute();

  it('acme-free → Pro with a new card 4242: $25.00 charged, a paid invoice, the cycle restarts', async () => {
    const missing = await change('acme-free', { tier: 'tier_pro' });
    expect(missing).toMatchObject({
      status: 400,
      body: { message: PAYMENT_METHOD_REQUIRED_MESSAGE },
    });

    const card = await addCard(owner, 'acme-free', CARDS.visa);
    const priced = await preview('acme-free', 'tier_pro');
    expect(priced.status).toBe(200);
    expect(priced.body).toMatchObject({
      plan_change_type: 'upgrade',
      charge_today: 2500,
      credit_applied: 0,
      total: 2500,
      effective_at: 'now',
    });
    expect(priced.body.breakdown.map((line) => [line.description, line.total_price])).toEqual([
      ['Pro plan', 2500],
    ]);

    const done = await change(
      'acme-free',
      { tier: 'tier_pro', payment_method: card, proration_date: priced.body.proration_date },
      'free-to-pro',
    );
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'applied', pending_payment_intent_secret: null });

    const after = await subscription('acme-free');
    expect(after.plan.id).toBe('pro');
    expect(after.usage_billing_enabled).toBe(false);
    expect(after.current_period_start).toBe(priced.body.proration_date);
    const [first] = await invoices('acme-free');
    expect(first).toMatchObject({ status: 'paid', amount_due: 2500, subtotal: 2500 });
    const pdf = await owner.get(`${base('acme-free')}/invoices/${first?.id ?? ''}`);
    expect(pdf.status).toBe(200);
    const charges = await chargesOf('acme-free');
    expect(charges.map((charge) => [charge.status, Number(charge.amount_cents)])).toEqual([
      ['succeeded', 2500],
    ]);

    // The same key again answers the first change and charges nothing more.
    const again = await change(
      'acme-free',
      { tier: 'tier_pro', payment_method: card, proration_date: priced.body.proration_date },
      'free-to-pro',
    );
    expect(again.body.status).toBe('applied');
    expect(await chargesOf('acme-free')).toHaveLength(1);
  });

  it('acme-pro → Team: with 4000 0027 6000 3184 a failed challenge changes nothing; completing it applies Team once, charged exactly the preview', async () => {
    const card = await addCard(owner, 'acme-pro', CARDS.alwaysAuthenticate);
    const before = await subscription('acme-pro');
    expect(before.customer_balance).toBe(5000);
    const priced = await preview('acme-pro', 'tier_team');
    expect(priced.status).toBe(200);
    const lines = priced.body.breakdown;
    expect(lines.reduce((sum, line) => sum + line.total_price, 0)).toBe(priced.body.total);
    expect(priced.body.credit_applied).toBe(5000);
    expect(priced.body.charge_today).toBe(priced.body.total - 5000);
    expect(lines.at(-1)).toMatchObject({ description: 'Team plan', total_price: 59_900 });
    expect(lines.find((line) => line.kind === 'unused_time')?.total_price).toBeLessThan(0);

    // Failing the challenge: still Pro, nothing owed, no invoice.
    const invoicesBefore = await invoices('acme-pro');
    const failing = await change(
      'acme-pro',
      { tier: 'tier_team', payment_method: card, proration_date: priced.body.proration_date },
      'pro-to-team-fail',
    );
    expect(failing.body.status).toBe('requires_action');
    const challenge = await confirmPayment(owner, failing.body.pending_payment_intent_secret ?? '');
    await answerChallenge(owner, challenge.body.challenge?.id ?? '', 'fail');
    const refused = await owner.post(`${base('acme-pro')}/subscription/confirm`, {
      payment_intent_id: failing.body.payment_intent_id,
    });
    expect(refused.status).toBe(402);
    expect((await subscription('acme-pro')).plan.id).toBe('pro');
    expect(await invoices('acme-pro')).toEqual(invoicesBefore);

    // Completing it: Team, charged exactly the preview's charge today, the balance used first.
    const asked = await change(
      'acme-pro',
      { tier: 'tier_team', payment_method: card, proration_date: priced.body.proration_date },
      'pro-to-team',
    );
    expect(asked.body.status).toBe('requires_action');
    expect((await subscription('acme-pro')).plan.id).toBe('pro');
    const confirm = await confirmPayment(owner, asked.body.pending_payment_intent_secret ?? '');
    await answerChallenge(owner, confirm.body.challenge?.id ?? '', 'complete');
    for (let i = 0; i < 2; i += 1) {
      const confirmed = await owner.post(`${base('acme-pro')}/subscription/confirm`, {
        payment_intent_id: asked.body.payment_intent_id,
      });
      expect(confirmed.status).toBe(200);
    }
    const after = await subscription('acme-pro');
    expect(after.plan.id).toBe('team');
    expect(after.customer_balance).toBe(priced.body.balance_after);
    expect(after.current_period_start).toBe(priced.body.proration_date);
    const [top] = await invoices('acme-pro');
    expect(top).toMatchObject({ status: 'paid', subtotal: priced.body.total });
    expect(top?.amount_due).toBe(priced.body.charge_today);
    const succeeded = (await chargesOf('acme-pro')).filter((c) => c.status === 'succeeded');
    expect(succeeded.map((c) => Number(c.amount_cents))).toEqual([priced.body.charge_today]);
    const defaultCard = await owner.get<{ defaultPaymentMethodId: string }>(
      '/platform/organizations/acme-pro/payments',
      { Version: '2' },
    );
    expect(defaultCard.body.defaultPaymentMethodId).toBe(card);
  });

  it('a declined card answers 402 with the decline and changes nothing', async () => {
    // restricted-co's default card is the simulator's declining card.
    const before = await subscription('restricted-co');
    const invoicesBefore = await invoices('restricted-co');
    const declined = await change('restricted-co', { tier: 'tier_team' });
    expect(declined.status).toBe(402);
    expect(declined.body.message).toMatch(/declined/i);
    expect(await subscription('restricted-co')).toEqual(before);
    expect(await invoices('restricted-co')).toEqual(invoicesBefore);
    const pending = await db()
      .selectFrom('plan_changes')
      .select('status')
      .where('organization_id', '=', await organizationIdOf(db(), 'restricted-co'))
      .execute();
    expect(pending.map((row) => row.status)).toEqual(['failed']);
  });

  it('two concurrent changes of one organization: one wins, the other gets 409', async () => {
    const card = await addCard(owner, 'idle-co', CARDS.visa);
    const answers = await Promise.all([
      change('idle-co', { tier: 'tier_team', payment_method: card }, 'race-a'),
      change('idle-co', { tier: 'tier_team', payment_method: card }, 'race-b'),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect((await chargesOf('idle-co')).filter((c) => c.status === 'succeeded')).toHaveLength(1);
    expect((await subscription('idle-co')).plan.id).toBe('team');
  });

  it('crowded-co → Free is refused with 409 while members are at their free project limit', async () => {
    const refused = await change('crowded-co', { tier: 'tier_free' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/free project limit/);
    expect((await subscription('crowded-co')).plan.id).toBe('pro');
  });

  it('fly-co → Free is scheduled for the end of the cycle, can be cancelled, and the job applies it once', async () => {
    const scheduled = await change('fly-co', { tier: 'tier_free' });
    expect(scheduled.body).toMatchObject({ status: 'scheduled' });
    const sub = await subscription('fly-co');
    expect(sub.plan.id).toBe('pro');
    expect(sub.scheduled_plan_change).toMatchObject({
      target_plan: 'free',
      at: sub.current_period_end,
    });
    const cancel = await owner.request('DELETE', `${base('fly-co')}/subscription/scheduled-change`);
    expect(cancel.status).toBe(200);
    expect((await subscription('fly-co')).scheduled_plan_change).toBeNull();
    expect(
      (await owner.request('DELETE', `${base('fly-co')}/subscription/scheduled-change`)).status,
    ).toBe(404);

    await change('fly-co', { tier: 'tier_free' });
    const organizationId = await organizationIdOf(db(), 'fly-co');
    const end = new Date(sub.current_period_end * 1000 + 2 * 60 * 60_000);
    const deps = { db: db(), gateway: server.gateway, clock: { now: () => end } };
    await runBillingJobs(deps, end, organizationId, 60);
    await runBillingJobs(deps, end, organizationId, 60);
    const after = await subscription('fly-co');
    expect(after.plan.id).toBe('free');
    expect(after.scheduled_plan_change).toBeNull();
    expect(after.current_period_start).toBe(sub.current_period_end);
  });

  it('payg-co → Free: add-ons end, compute moves to the free instance, unused time goes to the balance', async () => {
    // The downgrades above gave the demo owner and admin free projects up to their limit of 10.
    await db()
      .updateTable('users')
      .set({ free_project_limit: 100 })
      .where('email', 'in', ['owner@example.com', 'admin@example.com'])
      .execute();
    const before = await subscription('payg-co');
    const priced = await preview('payg-co', 'tier_free');
    expect(priced.status).toBe(200);
    expect(priced.body.plan_change_type).toBe('downgrade');
    // Its usage so far (beyond the quota, spend cap off) is billed by the change, less the unused time.
    const usage = priced.body.breakdown.filter((line) => line.kind === 'usage');
    expect(usage.length).toBeGreaterThan(0);
    expect(priced.body.charge_today).toBe(
      Math.max(0, priced.body.total - Math.max(0, before.customer_balance)),
    );
    const done = await change('payg-co', {
      tier: 'tier_free',
      proration_date: priced.body.proration_date,
    });
    expect(done.body.status).toBe('applied');
    const after = await subscription('payg-co');
    expect(after.plan.id).toBe('free');
    expect(after.customer_balance).toBe(priced.body.balance_after);
    expect(after.customer_balance - before.customer_balance).toBe(
      Math.max(0, -priced.body.total) - priced.body.credit_applied,
    );
    for (const project of after.project_addons) {
      expect(project.addons.map((addon) => addon.variant.identifier)).toEqual(['ci_nano']);
    }
  });

  it('refuses what §9 refuses, with the reasons the buttons show', async () => {
    const cases: [string, string, number, string][] = [
      ['acme-enterprise', 'tier_pro', 409, ENTERPRISE_PLAN_MESSAGE],
      ['aws-co', 'tier_team', 409, AWS_MARKETPLACE_MESSAGE],
      ['oriole-co', 'tier_team', 409, ORIOLE_PROJECT_MESSAGE],
      ['vercel_icfg_demo123', 'tier_team', 409, VERCEL_MARKETPLACE_MESSAGE],
      ['acme-team', 'tier_team', 409, SAME_PLAN_MESSAGE],
    ];
    for (const [slug, tier, status, message] of cases) {
      expect(await preview(slug, tier)).toMatchObject({ status, body: { message } });
      expect(await change(slug, { tier })).toMatchObject({ status, body: { message } });
    }
    expect((await change('acme-team', { tier: 'tier_enterprise' })).status).toBe(409);
    expect((await change('acme-team', { tier: 'tier_payg' }, undefined, developer)).status).toBe(
      403,
    );
    expect((await preview('acme-team', 'tier_payg', developer)).status).toBe(403);
    expect((await change('acme-team', { tier: 'tier_gold' })).status).toBe(400);
    expect(
      (await change('acme-team', { tier: 'tier_payg', proration_date: 1_000_000_000 })).body
        .message,
    ).toMatch(/^proration_date/);
  });

  it('the global switch refuses every change', async () => {
    const switched = await startTestServer({
      database,
      env: { DISABLE_PROJECT_CREATION_AND_UPDATES: 'true' },
    });
    try {
      const client = await switched.signIn('owner@example.com');
      const answer = await client.request('PUT', `${base('acme-team')}/subscription`, {
        tier: 'tier_payg',
      });
      expect(answer).toMatchObject({ status: 409, body: { message: CHANGES_DISABLED_MESSAGE } });
    } finally {
      await switched.close();
    }
  });
});
