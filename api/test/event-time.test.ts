import {
  invoiceDetailSchema,
  subscriptionSchema,
  upcomingInvoiceSchema,
  type SubscriptionPreview,
  type SubscriptionUpdateResponse,
  type UpcomingInvoiceLine,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../src/lib/close-grace.ts';
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

const KEY = 'test-metering-key-0123456789';
const GB = 1e9;
const MINUTE = 60;
const base = (slug: string) => `/platform/organizations/${slug}/billing`;

/**
 * Usage is placed and priced by the moment it happened, never by when it arrived (product-decisions
 * §15, decision 022): the regressions issue 23 reproduced on the demo world, items 1 and 2.
 */
describe.each(testDatabases())('usage by event time (%s)', (database) => {
  const clock = fixedClock(new Date('2026-11-20T12:00:00Z'));
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database, clock, env: { METERING_API_KEY: KEY } });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const now = () => Math.floor(clock.now().getTime() / 1000);
  // Sessions expire by the test's clock, which moves by weeks: the owner signs in again each time.
  const setClock = async (unix: number) => {
    clock.set(new Date(unix * 1000));
    owner = await server.signIn('owner@example.com');
  };
  const send = async (events: unknown[]) => {
    const response = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ events }),
    });
    expect(response.status).toBe(200);
  };
  const event = (id: string, ref: string, metric: string, usage: number, timestamp: number) => ({
    id,
    project_ref: ref,
    metric,
    usage,
    timestamp,
  });
  const subscription = async (slug: string) =>
    subscriptionSchema.parse((await owner.get(`${base(slug)}/subscription`)).body);
  const upcoming = async (slug: string) =>
    upcomingInvoiceSchema.parse((await owner.get(`${base(slug)}/invoices/upcoming`)).body);
  const preview = (slug: string, tier: string) =>
    owner.post<SubscriptionPreview>(
      `${base(slug)}/subscription/preview`,
      { tier },
      { Version: '2' },
    );
  const change = (slug: string, body: Record<string, unknown>, key: string) =>
    owner.request<SubscriptionUpdateResponse & { message: string }>(
      'PUT',
      `${base(slug)}/subscription`,
      body,
      { 'Idempotency-Key': key },
    );
  const runJob = async (slug: string, at: number) => {
    await setClock(at);
    const only = await organizationIdOf(db(), slug);
    await runBillingJobs({ db: db(), gateway: server.gateway, clock }, clock.now(), only);
  };
  const lineOf = <Line extends Pick<UpcomingInvoiceLine, 'usage_metric'>>(
    lines: readonly Line[],
    metric: string,
  ) => lines.filter((line) => line.usage_metric === metric);
  const invoiceLines = async (slug: string, id: string) =>
    invoiceDetailSchema.parse((await owner.get(`${base(slug)}/invoices/${id}`)).body).lines;
  const latestInvoiceId = async (slug: string) => {
    const row = await db()
      .selectFrom('invoices')
      .select('id')
      .where('organization_id', '=', await organizationIdOf(db(), slug))
      .orderBy('sequence', 'desc')
      .executeTakeFirstOrThrow();
    return row.id;
  };
  /** Roll-up rows in no cycle an invoice covers: neither a closed cycle nor the current one. */
  const orphanRollups = async (slug: string) => {
    const organizationId = await organizationIdOf(db(), slug);
    const current = (await subscription(slug)).current_period_start;
    const closed = await db()
      .selectFrom('closed_cycles')
      .select('cycle_start')
      .where('organization_id', '=', organizationId)
      .execute();
    const known = new Set([current, ...closed.map((row) => row.cycle_start.getTime() / 1000)]);
    const rows = await db()
      .selectFrom('usage_cycle')
      .select('cycle_start')
      .where('organization_id', '=', organizationId)
      .execute();
    return rows.filter((row) => !known.has(row.cycle_start.getTime() / 1000));
  };

  it('item 1: a change confirmed after the cycle end moves the usage stamped after its moment into the new cycle, which bills it', async () => {
    const end = (await subscription('acme-pro')).current_period_end;
    await setClock(end - 10 * MINUTE);
    const card = await addCard(owner, 'acme-pro', CARDS.alwaysAuthenticate);
    const priced = await preview('acme-pro', 'tier_team');
    expect(priced.status).toBe(200);
    const t = priced.body.proration_date;
    const asked = await change(
      'acme-pro',
      { tier: 'tier_team', payment_method: card, proration_date: t },
      'acme-team-late-confirm',
    );
    expect(asked.body.status).toBe('requires_action');

    // 20 minutes after the planned end, usage stamped a minute after it arrives: 300 GB of egress
    // and 100 hours of a Medium instance.
    await setClock(end + 20 * MINUTE);
    await send([
      event('late-egress', 'acmepro1', 'EGRESS', 300 * GB, end + 60),
      event('late-compute', 'acmepro2', 'COMPUTE_HOURS_MD', 100, end + 60),
    ]);
    const challenge = await confirmPayment(owner, asked.body.pending_payment_intent_secret ?? '');
    await answerChallenge(owner, challenge.body.challenge?.id ?? '', 'complete');
    const confirmed = await owner.post(`${base('acme-pro')}/subscription/confirm`, {
      payment_intent_id: asked.body.payment_intent_id,
    });
    expect(confirmed.status).toBe(200);

    const after = await subscription('acme-pro');
    expect(after.plan.id).toBe('team');
    expect(after.current_period_start).toBe(t);
    // Every roll-up row lies in a cycle an invoice covers, and the new cycle bills the usage: Team
    // includes 250 GB, so 50 GB at 9¢ ($4.50); 100 Medium hours at 8.22¢ ($8.22).
    expect(await orphanRollups('acme-pro')).toEqual([]);
    const lines = (await upcoming('acme-pro')).lines;
    expect(lineOf(lines, 'EGRESS').map((line) => line.amount)).toEqual([450]);
    const medium = lineOf(lines, 'COMPUTE_HOURS_MD');
    expect(medium.reduce((sum, line) => sum + line.amount, 0)).toBeGreaterThanOrEqual(822);

    // The close of the new cycle bills them, once.
    await runJob('acme-pro', after.current_period_end + (DEFAULT_CLOSE_GRACE_MINUTES + 1) * MINUTE);
    const closing = await invoiceLines('acme-pro', await latestInvoiceId('acme-pro'));
    expect(lineOf(closing, 'EGRESS').map((line) => line.amount)).toEqual([450]);
    expect(await orphanRollups('acme-pro')).toEqual([]);
  });

  it('item 1: a quote taken before the cycle end and sent after it starts the new cycle at its moment, with the usage stamped since', async () => {
    const end = (await subscription('payg-co')).current_period_end;
    await setClock(end - 2 * MINUTE);
    const priced = await preview('payg-co', 'tier_team');
    expect(priced.status).toBe(200);
    const t = priced.body.proration_date;
    await setClock(end + 3 * MINUTE);
    await send([event('quote-egress', 'paygco1', 'EGRESS', 7 * GB, end + 60)]);
    await setClock(end + 4 * MINUTE);
    const applied = await change('payg-co', { tier: 'tier_team', proration_date: t }, 'payg-quote');
    expect(applied.status).toBe(200);
    expect((await subscription('payg-co')).current_period_start).toBe(t);
    expect(await orphanRollups('payg-co')).toEqual([]);
    const organizationId = await organizationIdOf(db(), 'payg-co');
    const placed = await db()
      .selectFrom('usage_events')
      .select('cycle_start')
      .where('event_id', '=', 'quote-egress')
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    expect(placed.cycle_start?.getTime()).toBe(t * 1000);
  });

  it('item 2: each GB of egress is billed by the spend cap in force when it happened, whenever it arrived', async () => {
    // fairuse-co's sibling on Pro with the cap on: acme-team is Team, so take crowded-co (Pro, cap on).
    const slug = 'crowded-co';
    const sub = await subscription(slug);
    expect(sub.usage_billing_enabled).toBe(false);
    await addCard(owner, slug, CARDS.visa);
    // After the demo world's own usage (stamped up to the seeding), inside crowded-co's cycle.
    const start = Math.floor(Date.parse('2026-11-21T00:00:00Z') / 1000);
    expect(start).toBeGreaterThan(sub.current_period_start);
    const egressBilled = async () =>
      lineOf((await upcoming(slug)).lines, 'EGRESS').reduce((sum, line) => sum + line.amount, 0);

    // Over the 250 GB quota while the cap is on: nothing billed.
    await setClock(start + 3600);
    await send([event('cap-base', 'crowdedco1', 'EGRESS', 300 * GB, start + 600)]);
    expect(await egressBilled()).toBe(0);

    // The cap goes off at t1; 10 GB stamped 30 minutes before t1 (cap on) arrive a minute after it.
    await setClock(start + 86_400);
    const t1 = now();
    expect((await change(slug, { tier: 'tier_payg' }, 'cap-off-1')).status).toBe(200);
    await setClock(t1 + 60);
    await send([event('cap-on-late', 'crowdedco1', 'EGRESS', 10 * GB, t1 - 30 * MINUTE)]);
    expect(await egressBilled()).toBe(0);

    // 20 GB while it is off, then it goes on at t2 (its invoice bills those 20 GB: $1.80).
    await setClock(t1 + 3600);
    await send([event('cap-off-1', 'crowdedco1', 'EGRESS', 20 * GB, t1 + 1800)]);
    expect(await egressBilled()).toBe(180);
    await setClock(t1 + 7200);
    const t2 = now();
    const on = await change(slug, { tier: 'tier_pro' }, 'cap-on-2');
    expect(on.status).toBe(200);
    expect(await egressBilled()).toBe(0);
    // 5 GB stamped a minute before t2 (cap off) arrive after it: billed (45¢) by the close.
    await setClock(t2 + 300);
    await send([event('cap-off-late', 'crowdedco1', 'EGRESS', 5 * GB, t2 - 60)]);
    expect(await egressBilled()).toBe(45);

    // The close bills the 45¢; 40 GB stamped inside the cap-off interval arriving after the close
    // are billed on the next invoice as late usage of that cycle ($3.60), once.
    const end = sub.current_period_end;
    await runJob(slug, end + (DEFAULT_CLOSE_GRACE_MINUTES + 1) * MINUTE);
    const closing = await invoiceLines(slug, await latestInvoiceId(slug));
    expect(lineOf(closing, 'EGRESS').map((line) => line.amount)).toEqual([45]);
    await send([event('cap-off-after-close', 'crowdedco1', 'EGRESS', 40 * GB, t1 + 2400)]);
    const late = lineOf((await upcoming(slug)).lines, 'EGRESS');
    expect(late.map((line) => [line.description.includes('late usage'), line.amount])).toEqual([
      [true, 360],
    ]);
    // And 40 GB stamped while the cap was on, after the close: never billed.
    await send([event('cap-on-after-close', 'crowdedco1', 'EGRESS', 40 * GB, t2 + 3600)]);
    expect(lineOf((await upcoming(slug)).lines, 'EGRESS').map((line) => line.amount)).toEqual([
      360,
    ]);
    const next = (await subscription(slug)).current_period_end;
    await runJob(slug, next + (DEFAULT_CLOSE_GRACE_MINUTES + 1) * MINUTE);
    const billedLate = await invoiceLines(slug, await latestInvoiceId(slug));
    expect(lineOf(billedLate, 'EGRESS').map((line) => line.amount)).toEqual([360]);
    expect(lineOf((await upcoming(slug)).lines, 'EGRESS')).toEqual([]);
  });
});
