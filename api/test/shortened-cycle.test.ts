import {
  addMonthsClamped,
  invoiceDetailSchema,
  upcomingInvoiceSchema,
  type SubscriptionPreview,
  type SubscriptionUpdateResponse,
  type UpcomingInvoiceLine,
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

const KEY = 'test-metering-key-0123456789';
const GB = 1e9;
const base = '/platform/organizations/payg-co/billing';
const at = (iso: string) => new Date(iso);
const unix = (iso: string) => Math.floor(at(iso).getTime() / 1000);

/** round(numerator / denominator), halves up, for non-negative integers: counted apart from the engine. */
const roundHalfUp = (numerator: bigint, denominator: bigint) =>
  Number((2n * numerator + denominator) / (2n * denominator));

const summary = (lines: readonly Pick<UpcomingInvoiceLine, 'description' | 'amount'>[]) =>
  lines.map((line) => [line.description, line.amount]);

/**
 * Product-decisions §15: a cycle cut short by a plan change keeps the whole quota of
 * its counts, but its GB-months and its compute credits scale with its length. payg-co moves to Team at
 * 12:00, reports one 100 GB database-size sample (and 100 Medium compute hours) at 12:10 and moves back
 * to Pro at 13:00: the one-hour Team cycle bills 1/720 of a month's database overage (not $11.50) and
 * 1/720 of the $10 credits (not a fresh $10), and nothing of it is billed again afterwards.
 */
describe.each(testDatabases())('a cycle cut short by a plan change (%s)', (database) => {
  const clock = fixedClock(at('2026-11-20T12:00:00Z'));
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database, clock, env: { METERING_API_KEY: KEY } });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const changeTo = async (tier: string, card?: string) => {
    const priced = await owner.post<SubscriptionPreview>(
      `${base}/subscription/preview`,
      { tier },
      { Version: '2' },
    );
    expect(priced.status).toBe(200);
    const done = await owner.request<SubscriptionUpdateResponse>('PUT', `${base}/subscription`, {
      tier,
      proration_date: priced.body.proration_date,
      ...(card ? { payment_method: card } : {}),
    });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('applied');
    return priced.body;
  };
  const send = async (events: unknown[]) => {
    const response = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ events }),
    });
    expect(response.status).toBe(200);
  };
  const upcoming = async () =>
    upcomingInvoiceSchema.parse((await owner.get(`${base}/invoices/upcoming`)).body);

  it('bills 1/720 of the database overage and of the credits for one hour of Team, and never again', async () => {
    const card = await addCard(owner, 'payg-co', CARDS.visa);
    const toTeam = await changeTo('tier_team', card);
    expect(toTeam.proration_date).toBe(unix('2026-11-20T12:00:00Z'));

    clock.set(at('2026-11-20T12:10:00Z'));
    await send([
      {
        id: 'short-cycle-database',
        project_ref: 'paygco1',
        metric: 'DATABASE_SIZE',
        usage: 100 * GB,
        timestamp: unix('2026-11-20T12:10:00Z'),
      },
      {
        id: 'short-cycle-compute',
        project_ref: 'paygco1',
        metric: 'COMPUTE_HOURS_MD',
        usage: 100,
        timestamp: unix('2026-11-20T12:10:00Z'),
      },
    ]);

    clock.set(at('2026-11-20T13:00:00Z'));
    const toPro = await changeTo('tier_payg');
    const start = toTeam.proration_date;
    const end = toPro.proration_date;
    // The end the Team cycle was scheduled to have: a month after it began.
    const scheduledEnd = addMonthsClamped(start, 1);
    const length = BigInt(end - start);
    const month = BigInt(scheduledEnd - start);
    expect(Number(month) / Number(length)).toBe(720);

    // (100 − 8 GB) × 12.5¢ = 1,150¢ a month, × 3,600 s / 2,592,000 s = 1.597¢ → 2¢.
    const database = roundHalfUp(1150n * length, month);
    // 100 h × 8.22¢ = 822¢ of compute; the credits cover $10 × 1/720 = 1.39¢ → 1¢ of it.
    const credits = roundHalfUp(1000n * length, month);
    expect([database, credits]).toEqual([2, 1]);
    const usage = toPro.breakdown.filter((line) => line.kind === 'usage');
    expect(usage.map((line) => [line.description, line.total_price])).toEqual([
      ['Compute Hours Medium', 822],
      ['Compute Credits', -credits],
      ['Database Size', database],
    ]);

    const db = server.database.db;
    const organizationId = await organizationIdOf(db, 'payg-co');
    const change = await db
      .selectFrom('plan_changes')
      .select('invoice_id')
      .where('organization_id', '=', organizationId)
      .where('to_plan', '=', 'pro')
      .executeTakeFirstOrThrow();
    const invoice = invoiceDetailSchema.parse(
      (await owner.get(`${base}/invoices/${change.invoice_id ?? ''}`)).body,
    );
    const databaseLine = invoice.lines.find((line) => line.description === 'Database Size');
    expect(databaseLine?.amount).toBe(database);
    const creditsLine = invoice.lines.find((line) => line.description === 'Compute Credits');
    expect(creditsLine?.amount).toBe(-credits);
    // The closed cycle's terms keep the end it was scheduled to have: late usage is priced alike.
    const closed = await db
      .selectFrom('closed_cycles')
      .select(['cycle_end', 'scheduled_end'])
      .where('organization_id', '=', organizationId)
      .where('cycle_start', '=', new Date(start * 1000))
      .executeTakeFirstOrThrow();
    expect([closed.cycle_end, closed.scheduled_end]).toEqual([
      new Date(end * 1000),
      new Date(scheduledEnd * 1000),
    ]);

    // The next cycle bills neither the sample nor the compute again, now or when it closes.
    const next = await upcoming();
    expect(
      summary(next.lines).filter(([description]) =>
        /Database Size|Compute Hours Medium|Compute Credits/.test(String(description)),
      ),
    ).toEqual([]);
    const nextEnd = new Date(addMonthsClamped(end, 1) * 1000);
    const close = new Date(nextEnd.getTime() + 2 * 3600_000);
    clock.set(close);
    await runBillingJobs({ db, gateway: server.gateway, clock }, close, organizationId, 60);
    const closing = await db
      .selectFrom('invoices')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('period_start', '=', new Date(end * 1000))
      .executeTakeFirstOrThrow();
    owner = await server.signIn('owner@example.com');
    const closed2 = invoiceDetailSchema.parse(
      (await owner.get(`${base}/invoices/${closing.id}`)).body,
    );
    expect(
      summary(closed2.lines).filter(([description]) =>
        /Database Size|Compute Hours Medium|Compute Credits/.test(String(description)),
      ),
    ).toEqual([]);
  });

  it('late usage of the shortened cycle is priced by its fraction too', async () => {
    const db = server.database.db;
    const organizationId = await organizationIdOf(db, 'payg-co');
    const team = await db
      .selectFrom('closed_cycles')
      .select(['cycle_start', 'cycle_end'])
      .where('organization_id', '=', organizationId)
      .where('plan_id', '=', 'team')
      .executeTakeFirstOrThrow();
    const start = Math.floor(team.cycle_start.getTime() / 1000);
    const end = Math.floor(team.cycle_end.getTime() / 1000);
    // A second sample of 300 GB for the one-hour Team cycle arrives long after it closed: the
    // average is now 200 GB, (200 − 8 GB) × 12.5¢ = 2,400¢ a month, × 1/720 = 3.33¢ → 3¢; 2¢ was
    // billed, so the late line bills 1¢, not the $12.50 a whole month of the difference would.
    await send([
      {
        id: 'short-cycle-database-late',
        project_ref: 'paygco1',
        metric: 'DATABASE_SIZE',
        usage: 300 * GB,
        timestamp: start + 1800,
      },
    ]);
    const length = BigInt(end - start);
    const month = BigInt(addMonthsClamped(start, 1) - start);
    const late = roundHalfUp(2400n * length, month) - roundHalfUp(1150n * length, month);
    expect(late).toBe(1);
    const lines = (await upcoming()).lines.filter((line) =>
      line.description.startsWith('Database Size (late usage'),
    );
    expect(lines.map((line) => line.amount)).toEqual([late]);
  });
});
