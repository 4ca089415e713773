import {
  formatCents,
  invoiceDetailSchema,
  invoiceListSchema,
  restrictionHistoryResponseSchema,
  subscriptionSchema,
  upcomingInvoiceSchema,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { closeCycle } from '../src/services/invoices/close-cycle.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../src/lib/close-grace.ts';
import { collectInvoice } from '../src/services/invoices/collect-invoice.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { addDecliningDefaultCard } from './support/payments.ts';
import { pdfText } from './support/pdf-text.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
  organizationIdOf,
} from './support/server.ts';
import { databaseOf, runCliOk } from './support/cli.ts';

const DAY = 86_400_000;
/** A cycle closes once the grace window for late usage after its end has passed. */
const GRACE = DEFAULT_CLOSE_GRACE_MINUTES * 60_000;

describe.each(testDatabases())('closing a cycle (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database, clock });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const deps = () => ({ db: db(), gateway: server.gateway, clock });
  const orgId = (slug: string) => organizationIdOf(db(), slug);
  const subscriptionOf = async (slug: string) =>
    subscriptionSchema.parse(
      (await owner.get(`/platform/organizations/${slug}/billing/subscription`)).body,
    );

  it('turns the upcoming invoice at the cycle end into the newest past invoice, credit applied first', async () => {
    const before = await subscriptionOf('acme-pro');
    clock.set(new Date(before.current_period_end * 1000));
    // Sessions expire by the same clock: sign in again in the future.
    owner = await server.signIn('owner@example.com');
    const upcoming = upcomingInvoiceSchema.parse(
      (await owner.get('/platform/organizations/acme-pro/billing/invoices/upcoming')).body,
    );
    expect(upcoming.amount_total).toBe(upcoming.amount_projected);

    const id = await orgId('acme-pro');
    // Within the grace window for late usage the cycle stays open; once it has passed, it closes.
    const early = new Date(before.current_period_end * 1000 + GRACE - 1000);
    expect((await runBillingJobs(deps(), early, id)).closed).toEqual([]);
    const report = await runBillingJobs(deps(), new Date(early.getTime() + 1000), id);
    expect(report.closed).toHaveLength(1);

    const list = await owner.get('/platform/organizations/acme-pro/billing/invoices?limit=1');
    expect(list.headers.get('x-total-count')).toBe('14');
    const [newest] = invoiceListSchema.parse(list.body);
    expect(newest?.id).toBe(report.closed[0]);
    const invoice = invoiceDetailSchema.parse(
      (await owner.get(`/platform/organizations/acme-pro/billing/invoices/${newest?.id}`)).body,
    );
    expect(invoice.lines).toEqual(upcoming.lines);
    expect(invoice.total).toBe(upcoming.amount_total);
    expect(invoice.credit_applied).toBe(Math.min(5000, upcoming.amount_total));
    expect(invoice.amount_due).toBe(upcoming.amount_total - invoice.credit_applied);
    expect(invoice.period_start).toBe(before.current_period_start);
    expect(invoice.period_end).toBe(before.current_period_end);
    // The default Visa paid it at once.
    expect(invoice.status).toBe('paid');

    const text = await pdfText((await owner.bytes(invoice.invoice_pdf)).body);
    expect(text).toContain(formatCents(invoice.total));
    expect(text).toContain(formatCents(invoice.amount_due));

    const after = await subscriptionOf('acme-pro');
    expect(after.current_period_start).toBe(before.current_period_end);
    expect(after.customer_balance).toBe(5000 - invoice.credit_applied);
  });

  it('bills a cycle once, closed twice in a row or twice at the same moment', async () => {
    const id = await orgId('payg-co');
    const { current_period_end: end, current_period_start: start } =
      await subscriptionOf('payg-co');
    const at = new Date(end * 1000);
    // No grace: the cycle closes at its very end.
    const results = await Promise.all([closeCycle(db(), id, at, 0), closeCycle(db(), id, at, 0)]);
    expect(results.map((result) => result.status).sort()).toEqual(['closed', 'not_due']);
    expect((await closeCycle(db(), id, at, 0)).status).toBe('not_due');
    const invoices = await db()
      .selectFrom('invoices')
      .select('id')
      .where('organization_id', '=', id)
      .where('period_start', '=', new Date(start * 1000))
      .execute();
    expect(invoices).toHaveLength(1);
  });

  it('catches up every missed cycle when the job runs late, each once', async () => {
    const id = await orgId('oriole-co');
    const { current_period_end: end } = await subscriptionOf('oriole-co');
    const late = new Date(end * 1000 + 40 * DAY);
    const first = await runBillingJobs(deps(), late, id);
    expect(first.closed).toHaveLength(2);
    const again = await runBillingJobs(deps(), late, id);
    expect(again.closed).toHaveLength(0);
    const periods = await db()
      .selectFrom('invoices')
      .select(['period_start', 'period_end', 'status'])
      .where('organization_id', '=', id)
      .orderBy('period_start')
      .execute();
    expect(periods).toHaveLength(2);
    expect(periods[0]?.period_end.getTime()).toBe(periods[1]?.period_start.getTime());
    expect(periods.every((period) => period.status === 'paid')).toBe(true);
  });

  it('retries a declined card on days 3, 5 and 7, restricts after 14 days, and lifts it once paid', async () => {
    const id = await orgId('crowded-co');
    await addDecliningDefaultCard(server, id);
    const { current_period_end: end } = await subscriptionOf('crowded-co');
    const closedAt = end * 1000 + GRACE;
    const closed = await runBillingJobs(deps(), new Date(closedAt), id);
    const invoiceId = closed.closed[0] ?? '';
    expect(closed.failed).toEqual([invoiceId]);
    const state = () =>
      db()
        .selectFrom('invoices')
        .select(['status', 'payment_attempted', 'attempt_count', 'next_payment_attempt_at'])
        .where('id', '=', invoiceId)
        .executeTakeFirstOrThrow();
    expect(await state()).toMatchObject({
      status: 'open',
      payment_attempted: true,
      attempt_count: 1,
    });
    expect((await state()).next_payment_attempt_at?.getTime()).toBe(closedAt + 3 * DAY);

    // Nothing happens before a retry is due.
    const early = await runBillingJobs(deps(), new Date(closedAt + 2 * DAY));
    expect(early.failed).not.toContain(invoiceId);
    expect((await state()).attempt_count).toBe(1);
    for (const [day, attempts] of [
      [3, 2],
      [5, 3],
      [7, 4],
    ] as const) {
      const run = await runBillingJobs(deps(), new Date(closedAt + day * DAY));
      expect(run.failed).toContain(invoiceId);
      expect((await state()).attempt_count).toBe(attempts);
    }
    expect((await state()).next_payment_attempt_at).toBeNull();
    const charges = await db()
      .selectFrom('charges')
      .select('status')
      .where('invoice_id', '=', invoiceId)
      .execute();
    expect(charges.map((charge) => charge.status)).toEqual([
      'failed',
      'failed',
      'failed',
      'failed',
    ]);

    const organization = () =>
      owner.get<{ restriction_status: string | null }>('/platform/organizations/crowded-co');
    await runBillingJobs(deps(), new Date(closedAt + 13 * DAY));
    expect((await organization()).body.restriction_status).toBeNull();
    const overdue = await runBillingJobs(deps(), new Date(closedAt + 14 * DAY));
    expect(overdue.restricted).toContain(id);
    expect((await organization()).body.restriction_status).toBe('restricted');
    expect((await owner.get('/platform/projects/crowdedco1')).status).toBe(402);
    // Recorded once, readable by the organization's members; a second run restricts nothing more.
    await runBillingJobs(deps(), new Date(closedAt + 14 * DAY + 60_000));
    const history = async () =>
      restrictionHistoryResponseSchema.parse(
        (await owner.get('/platform/organizations/crowded-co/billing/restriction-history')).body,
      ).transitions;
    expect(await history()).toEqual([
      {
        at: Math.floor((closedAt + 14 * DAY) / 1000),
        from: null,
        to: 'restricted',
        reason: 'payment_overdue',
        metrics: [],
        violations: ['overdue_payment'],
        grace_period_end: null,
      },
    ]);

    // The customer pays with the Visa on file: paid once, and the restriction is lifted.
    const visa = await db()
      .selectFrom('payment_methods')
      .select('id')
      .where('organization_id', '=', id)
      .where('last4', '=', '4242')
      .executeTakeFirstOrThrow();
    const at = new Date(closedAt + 15 * DAY);
    const pay = (key: string) =>
      collectInvoice(deps(), invoiceId, {
        at,
        trigger: 'pay_now',
        paymentMethodId: visa.id,
        idempotencyKey: key,
      });
    expect(await pay('key-1')).toEqual({ status: 'paid' });
    expect(await pay('key-1')).toEqual({ status: 'skipped', reason: 'not_open' });
    expect((await state()).status).toBe('paid');
    expect((await organization()).body.restriction_status).toBeNull();
    expect((await owner.get('/platform/projects/crowdedco1')).status).toBe(200);
    expect((await history()).map((transition) => [transition.reason, transition.to])).toEqual([
      ['overdue_payment_settled', null],
      ['payment_overdue', 'restricted'],
    ]);
    expect((await history())[0]?.at).toBe(Math.floor(at.getTime() / 1000));
    const succeeded = await db()
      .selectFrom('charges')
      .select('status')
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'succeeded')
      .execute();
    expect(succeeded).toHaveLength(1);
  });

  it.runIf(database === 'postgres')(
    'bills a cycle once when two processes close it at the same moment',
    async () => {
      const { current_period_end: end, current_period_start: start } =
        await subscriptionOf('acme-team');
      const at = new Date(end * 1000 + GRACE).toISOString();
      const run = (...options: string[]) =>
        runCliOk('billing', ['close-cycle', '--org', 'acme-team', ...options], databaseOf(server));
      // The CLI leaves the grace window for late usage too (--grace sets another).
      const ended = new Date(end * 1000).toISOString();
      expect(JSON.parse(await run('--at', ended))).toMatchObject({ closed: [] });
      const outputs = await Promise.all([run('--at', at), run('--at', at)]);
      const closed = outputs.flatMap(
        (output) => (JSON.parse(output) as { closed: string[] }).closed,
      );
      expect(closed).toHaveLength(1);
      const invoices = await db()
        .selectFrom('invoices')
        .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
        .select('invoices.id')
        .where('organizations.slug', '=', 'acme-team')
        .where('invoices.period_start', '=', new Date(start * 1000))
        .execute();
      expect(invoices).toHaveLength(1);
    },
  );
});
