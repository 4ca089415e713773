import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkExactlyOnce, seedClosingOrganizations } from '../bench/scale.ts';
import { fixedClock } from '../src/clock.ts';
import { lockSubscription } from '../src/repositories/subscriptions.ts';
import { closeCycle } from '../src/services/invoices/close-cycle.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import {
  startTestServer,
  testDatabases,
  type TestServer,
  organizationIdOf,
} from './support/server.ts';

/** Organizations with an ended cycle, in the bench's mix (free, declining card, usage, team, pro). */
const ORGANIZATIONS = 60;

/**
 * The billing job run by several processes at once shares the organizations out
 * (FOR UPDATE SKIP LOCKED on the subscription) and works on a few at a time, each cycle still closed and
 * collected exactly once.
 */
describe.each(testDatabases())('the billing job run twice at once (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ database, clock });
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const deps = () => ({ db: db(), gateway: server.gateway, clock });
  const orgId = (slug: string) => organizationIdOf(db(), slug);

  it('closes and collects every due cycle exactly once when two runs go at once, and both do part of it', async () => {
    await seedClosingOrganizations(db(), ORGANIZATIONS, clock.now().getTime());
    const [first, second] = await Promise.all([
      runBillingJobs(deps(), clock.now(), undefined, 60, { concurrency: 4 }),
      runBillingJobs(deps(), clock.now(), undefined, 60, { concurrency: 4 }),
    ]);
    const check = await checkExactlyOnce(db(), clock.now());
    expect(check.organizations).toBe(ORGANIZATIONS);
    expect(check).toMatchObject({
      due: 0,
      closedCycles: ORGANIZATIONS,
      cyclesClosedTwice: 0,
      invoices: check.expectedInvoices,
      invoicesPerPeriodTwice: 0,
      openDue: 0,
      unsettled: 0,
      invoicesChargedTwice: 0,
      paidWithoutCharge: 0,
      providerSucceeded: check.succeededCharges,
    });
    expect(check.expectedInvoices).toBeGreaterThan(30);
    expect(check.paid).toBeGreaterThan(30);
    expect(first?.errors).toEqual([]);
    expect(second?.errors).toEqual([]);
    const closedInvoices = [...(first?.closed ?? []), ...(second?.closed ?? [])];
    expect(new Set(closedInvoices).size).toBe(closedInvoices.length);
    // On PostgreSQL the runs work side by side rather than one behind the other: each closes some.
    if (server.database.kind === 'postgres') {
      expect(first?.closed.length).toBeGreaterThan(0);
      expect(second?.closed.length).toBeGreaterThan(0);
    }
  });

  it('leaves an organization whose subscription another transaction holds, and closes it at the next run', async () => {
    // Ten more organizations with an ended cycle, close-61 … close-70.
    await seedClosingOrganizations(db(), 10, clock.now().getTime(), ORGANIZATIONS + 1);
    // On the embedded database a transaction held open holds its only connection: the case is PostgreSQL's.
    if (server.database.kind === 'pglite') {
      const id = await orgId('close-62');
      // With nothing holding it, skipLocked closes as usual.
      expect((await closeCycle(db(), id, clock.now(), 60, { skipLocked: true })).status).not.toBe(
        'busy',
      );
      return;
    }
    const held = await orgId('close-61');
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = db()
      .transaction()
      .execute(async (trx) => {
        await lockSubscription(trx, held);
        locked();
        await released;
      });
    await isLocked;
    expect((await closeCycle(db(), held, clock.now(), 60, { skipLocked: true })).status).toBe(
      'busy',
    );
    // A run that waited for the held row instead would never end while it is held: fail it in time.
    const report = await Promise.race([
      runBillingJobs(deps(), clock.now(), undefined, 60, { concurrency: 4 }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the run waited for the held subscription')), 20_000),
      ),
    ]).finally(() => release());
    const closedOf = async (id: string) =>
      (
        await db()
          .selectFrom('closed_cycles')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .where('organization_id', '=', id)
          .executeTakeFirstOrThrow()
      ).count;
    expect(Number(await closedOf(held))).toBe(0);
    expect(report.closed.length).toBeGreaterThan(0);
    await holder;
    await runBillingJobs(deps(), clock.now(), undefined, 60, { concurrency: 4 });
    expect(Number(await closedOf(held))).toBe(1);
  });
});
