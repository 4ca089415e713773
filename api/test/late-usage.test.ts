import {
  invoiceDetailSchema,
  upcomingInvoiceSchema,
  type UpcomingInvoiceLine,
} from '@meterline/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { getSubscription, lockSubscription } from '../src/repositories/subscriptions.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';

const KEY = 'test-metering-key-0123456789';
const GB = 1e9;
const MINUTE = 60_000;
const at = (iso: string) => new Date(iso);
const unix = (iso: string) => Math.floor(at(iso).getTime() / 1000);

const summary = (lines: readonly Pick<UpcomingInvoiceLine, 'description' | 'amount'>[]) =>
  lines.map((line) => [line.description, line.amount]);

/**
 * late-co: Pro with the spend cap off, one paused project, billed by invoice (nothing to charge), its
 * cycles the calendar months from 1 Nov 2026. Egress: 250 GB included, then 9¢ per GB.
 */
describe.each(testDatabases())('usage reported late (%s)', (database) => {
  const clock = fixedClock(at('2026-11-20T00:00:00Z'));
  let server: TestServer;
  let organizationId = '';

  beforeAll(async () => {
    server = await startTestServer({ database, clock, env: { METERING_API_KEY: KEY } });
    const db = server.database.db;
    const org = await db
      .insertInto('organizations')
      .values({ slug: 'late-co', name: 'Late Co', managed_by: 'platform' })
      .returning('id')
      .executeTakeFirstOrThrow();
    organizationId = org.id;
    await db
      .insertInto('subscriptions')
      .values({
        organization_id: organizationId,
        plan_id: 'pro',
        usage_billing_enabled: true,
        billing_via_partner: false,
        billing_partner: null,
        payment_method_type: 'invoice',
        billing_cycle_anchor: at('2026-11-01T00:00:00Z'),
        current_period_start: at('2026-11-01T00:00:00Z'),
        current_period_end: at('2026-12-01T00:00:00Z'),
      })
      .execute();
    await db
      .insertInto('projects')
      .values({
        organization_id: organizationId,
        ref: 'lateco1',
        name: 'Late Co Project 1',
        status: 'INACTIVE',
        compute_size: 'micro',
      })
      .execute();
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'owner@example.com')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('memberships')
      .values({ organization_id: organizationId, user_id: user.id, role: 'owner' })
      .execute();
  });
  afterAll(() => server.close());

  const egress = (id: string, gigabytes: number, timestamp: string) => ({
    id,
    project_ref: 'lateco1',
    metric: 'EGRESS',
    usage: gigabytes * GB,
    timestamp: unix(timestamp),
  });
  const send = async (events: unknown[]) => {
    const response = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ events }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as { accepted: number; duplicates: number };
  };
  /** The billing job at `when`: for everyone, or (faster) for late-co alone. */
  const run = (when: Date, everyone = false) => {
    clock.set(when);
    const only = everyone ? undefined : organizationId;
    return runBillingJobs({ db: server.database.db, gateway: server.gateway, clock }, when, only);
  };
  const invoices = () =>
    server.database.db
      .selectFrom('invoices')
      .select(['id', 'period_start'])
      .where('organization_id', '=', organizationId)
      .orderBy('sequence')
      .execute();
  // Sessions expire by the test's clock, which moves by months: the owner signs in at each look.
  const asOwner = () => server.signIn('owner@example.com');
  const linesOf = async (invoiceId: string) =>
    invoiceDetailSchema.parse(
      (await (await asOwner()).get(`/platform/organizations/late-co/billing/invoices/${invoiceId}`))
        .body,
    ).lines;
  const upcoming = async () =>
    upcomingInvoiceSchema.parse(
      (await (await asOwner()).get('/platform/organizations/late-co/billing/invoices/upcoming'))
        .body,
    );

  const LATE_NOVEMBER = 'Egress (late usage, Nov 01, 2026 – Dec 01, 2026)';

  it('bills an event reported 30 minutes after the end with its cycle, closed after the grace', async () => {
    expect(await send([egress('nov-1', 200, '2026-11-15T12:00:00Z')])).toEqual({
      accepted: 1,
      duplicates: 0,
    });
    // The cycle has ended, but its grace window for late usage has not passed: it stays open.
    await run(at('2026-12-01T00:01:00Z'), true);
    expect((await run(at('2026-12-01T00:01:00Z'))).closed).toEqual([]);
    expect(await invoices()).toEqual([]);

    // Reported at 00:30 for the last minutes of November: 300 GB in all, 50 GB beyond the quota.
    clock.set(at('2026-12-01T00:30:00Z'));
    await send([egress('nov-2', 100, '2026-11-30T23:50:00Z')]);
    await run(new Date(at('2026-12-01T01:00:00Z').getTime() - MINUTE), true);
    expect(await invoices()).toEqual([]);
    await run(at('2026-12-01T01:00:00Z'), true);
    const [november] = await invoices();
    expect(summary(await linesOf(november?.id ?? ''))).toEqual([
      ['Pro Plan', 2500],
      ['Egress', 450],
    ]);
  });

  it('bills an event reported after the close on the next invoice, as a line of its own', async () => {
    clock.set(at('2026-12-02T00:00:00Z'));
    await send([egress('nov-3', 50, '2026-11-30T23:55:00Z')]);
    // The upcoming invoice shows it already: 50 GB more, all beyond the quota.
    const next = await upcoming();
    expect(summary(next.lines)).toEqual([
      ['Pro Plan', 2500],
      [LATE_NOVEMBER, 450],
    ]);
    expect(next.lines[1]).toMatchObject({ usage_metric: 'EGRESS', usage_original: 50 * GB });
    expect(next.amount_total).toBe(2950);
    expect(next.amount_projected).toBe(2950);

    await run(at('2027-01-01T01:00:00Z'));
    const [, december] = await invoices();
    expect(december?.period_start).toEqual(at('2026-12-01T00:00:00Z'));
    expect(await linesOf(december?.id ?? '')).toEqual(next.lines);
    // November is now billed for its 350 GB: 450 + 450 = 100 GB × 9¢, once.
  });

  it('bills nothing more for events sent again, and only the new part of later ones', async () => {
    clock.set(at('2027-01-02T00:00:00Z'));
    const replay = [
      egress('nov-1', 200, '2026-11-15T12:00:00Z'),
      egress('nov-2', 100, '2026-11-30T23:50:00Z'),
      egress('nov-3', 50, '2026-11-30T23:55:00Z'),
    ];
    expect(await send(replay)).toEqual({ accepted: 0, duplicates: 3 });
    expect(summary((await upcoming()).lines)).toEqual([['Pro Plan', 2500]]);

    // Late again, for November and for December (each within 60 days of when it happened): each
    // cycle by its own usage and quota.
    clock.set(at('2027-01-20T00:00:00Z'));
    const december = egress('dec-1', 251, '2026-12-31T23:00:00Z');
    expect(
      await send([...replay.slice(1), egress('nov-4', 10, '2026-11-30T23:59:00Z'), december]),
    ).toEqual({ accepted: 2, duplicates: 2 });
    expect(summary((await upcoming()).lines)).toEqual([
      ['Pro Plan', 2500],
      [LATE_NOVEMBER, 90],
      ['Egress (late usage, Dec 01, 2026 – Jan 01, 2027)', 9],
    ]);
    await run(at('2027-02-01T01:00:00Z'));

    // Sent again once billed: December's is a duplicate; November's, now more than 60 days old, is
    // refused whole (decision 005). Neither bills anything.
    clock.set(at('2027-02-02T00:00:00Z'));
    expect(await send([december])).toEqual({ accepted: 0, duplicates: 1 });
    const refused = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({ events: [...replay, december] }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /^events\[0\] \(id nov-1\): timestamp 2026-11-15T12:00:00Z is more than 60 days before now/,
    );
    await run(at('2027-03-01T01:00:00Z'));
    const [, , january, february] = await invoices();
    expect(summary(await linesOf(january?.id ?? ''))).toEqual([
      ['Pro Plan', 2500],
      [LATE_NOVEMBER, 90],
      ['Egress (late usage, Dec 01, 2026 – Jan 01, 2027)', 9],
    ]);
    expect(summary(await linesOf(february?.id ?? ''))).toEqual([['Pro Plan', 2500]]);
  });
});

describe.runIf(testDatabases().includes('postgres'))('usage reported while a cycle closes', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database: 'postgres', env: { METERING_API_KEY: KEY } });
  });
  afterAll(() => server.close());

  it('is billed late when the close commits first: ingestion waits for its lock', async () => {
    const db = server.database.db;
    const { organization_id: organizationId, current_period_start: start } = await db
      .selectFrom('subscriptions')
      .innerJoin('organizations', 'organizations.id', 'subscriptions.organization_id')
      .select(['subscriptions.organization_id', 'subscriptions.current_period_start'])
      .where('organizations.slug', '=', 'payg-co')
      .executeTakeFirstOrThrow();
    let ingested: Promise<Response> | undefined;
    await db.transaction().execute(async (trx) => {
      // A close holds the subscription's lock while it bills the cycle and moves it on.
      await lockSubscription(trx, organizationId);
      ingested = fetch(`${server.url}/internal/usage-events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({
          events: [
            {
              id: 'racing-1',
              project_ref: 'paygco1',
              metric: 'EGRESS',
              usage: GB,
              timestamp: Math.floor(start.getTime() / 1000) + 60,
            },
          ],
        }),
      });
      // Until the ingestion waits for the lock: a waiter holds the row's tuple lock meanwhile.
      for (;;) {
        const { rows } = await sql<{ waiting: number }>`
          SELECT count(*)::int AS waiting FROM pg_locks
          WHERE locktype = 'tuple' AND relation = 'subscriptions'::regclass
        `.execute(trx);
        if ((rows[0]?.waiting ?? 0) > 0) break;
      }
      await trx
        .updateTable('subscriptions')
        .set({
          current_period_start: new Date(start.getTime() + 30 * 86_400_000),
          current_period_end: new Date(start.getTime() + 60 * 86_400_000),
        })
        .where('organization_id', '=', organizationId)
        .execute();
    });
    expect((await ingested)?.status).toBe(200);
    const { late_usage_since } = await getSubscription(db, organizationId);
    expect(late_usage_since).toEqual(start);
  });
});
