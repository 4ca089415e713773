import {
  cycleContaining,
  GRACE_PERIOD_SECONDS,
  restrictionBanner,
  restrictionHistoryResponseSchema,
  type OrgUsage,
  type SubscriptionPreview,
  type Organization,
} from '@meterline/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { CARDS, addCard, organizationIdOf } from './support/payments.ts';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';
import { databaseOf, runCliOk } from './support/cli.ts';

const KEY = 'test-metering-key-0123456789';
const GB = 1e9;
const HOUR = 3600;
const DAY = 86_400;
const unix = (date: Date) => Math.floor(date.getTime() / 1000);
const fromUnix = (seconds: number) => new Date(seconds * 1000);

/**
 * Product-decisions §11 from real usage, through the HTTP API: usage ingestion and the billing job keep
 * a Free or spend-capped organization's restriction, each change recorded in its history.
 */
describe.each(testDatabases())('restrictions decided from usage (%s)', (database) => {
  const clock = fixedClock(new Date('2026-11-20T00:00:00Z'));
  let server: TestServer;
  let cycle = { start: 0, end: 0 };
  let egressQuota = 0;
  let seededEgress = 0;

  beforeAll(async () => {
    server = await startTestServer({ database, clock, env: { METERING_API_KEY: KEY } });
    const owner = await server.signIn('owner@example.com');
    const subscription = await owner.get<{
      current_period_start: number;
      current_period_end: number;
    }>('/platform/organizations/acme-free/billing/subscription');
    cycle = {
      start: subscription.body.current_period_start,
      end: subscription.body.current_period_end,
    };
    const usage = await owner.get<OrgUsage>('/platform/organizations/acme-free/usage');
    const egress = usage.body.usages.find((record) => record.metric === 'EGRESS');
    expect(egress).toMatchObject({ capped: true });
    egressQuota = egress?.pricing_free_units ?? 0;
    seededEgress = egress?.usage ?? 0;
    expect(seededEgress).toBeLessThan(egressQuota);
    expect(egressQuota).toBeGreaterThan(0);
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  // Sessions expire by the test's clock, which moves by weeks: the owner signs in at each look.
  const asOwner = () => server.signIn('owner@example.com');
  const organization = async (slug: string) =>
    (await (await asOwner()).get<Organization>(`/platform/organizations/${slug}`)).body;
  const history = async (slug: string, user = 'owner') => {
    const client = await server.signIn(`${user}@example.com`);
    const response = await client.get(
      `/platform/organizations/${slug}/billing/restriction-history`,
    );
    expect(response.status).toBe(200);
    return restrictionHistoryResponseSchema.parse(response.body).transitions;
  };
  const project = async (ref: string) =>
    (await asOwner()).get<{ message?: string; ref?: string }>(`/platform/projects/${ref}`);
  const banner = async (slug: string) => {
    const org = await organization(slug);
    const usage = await (await asOwner()).get<OrgUsage>(`/platform/organizations/${slug}/usage`);
    return restrictionBanner({
      org,
      usages: usage.body.usages,
      usageBillingEnabled: usage.body.usage_billing_enabled,
    });
  };

  let sent = 0;
  /** Reports egress for a project at the clock's moment (stamped a minute before it). */
  const reportEgress = async (ref: string, bytes: number) => {
    const response = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({
        events: [
          {
            id: `egress-${ref}-${++sent}`,
            project_ref: ref,
            metric: 'EGRESS',
            usage: bytes,
            timestamp: unix(clock.now()) - 60,
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ accepted: 1, duplicates: 0 });
  };

  /** One pass of the billing job at `at`, in this process (for one organization, or everyone). */
  const runJob = async (at: Date, slug?: string) => {
    clock.set(at);
    const only = slug ? await organizationIdOf(db(), slug) : undefined;
    const report = await runBillingJobs({ db: db(), gateway: server.gateway, clock }, at, only);
    expect(report.errors).toEqual([]);
    return report;
  };

  /** `npm run billing -- run --at <at>`, as an operator runs it against the same PostgreSQL store. */
  const runCli = async (at: Date) =>
    JSON.parse(
      await runCliOk('billing', ['run', '--at', at.toISOString()], databaseOf(server)),
    ) as { usageRestrictionChanged: string[]; errors: unknown[] };

  const steps = (entries: Awaited<ReturnType<typeof history>>) =>
    entries.map((entry) => [entry.from, entry.to, entry.reason, entry.metrics]);

  it('acme-free: above the Free egress quota → grace period → over → restricted (402) → upgraded and lifted', async () => {
    // Egress reported above the quota: the grace period starts at once.
    const reportedAt = unix(clock.now());
    expect((await organization('acme-free')).restriction_status).toBeNull();
    await reportEgress('acmefree1', egressQuota - seededEgress + GB);
    const graceEnd = reportedAt + GRACE_PERIOD_SECONDS;
    expect(graceEnd).toBe(reportedAt + 7 * DAY);
    expect(graceEnd + HOUR).toBeLessThan(cycle.end);
    expect(await organization('acme-free')).toMatchObject({
      restriction_status: 'grace_period',
      restriction_data: { grace_period_end: graceEnd, violations: ['exceed_egress_quota'] },
    });
    expect(await banner('acme-free')).toMatchObject({
      kind: 'gracePeriod',
      graceEnd,
      cta: { label: 'Upgrade plan' },
    });
    expect((await project('acmefree1')).status).toBe(200);
    const started = await history('acme-free');
    expect(steps(started)).toEqual([[null, 'grace_period', 'quota_exceeded', ['EGRESS']]]);
    expect(started[0]).toMatchObject({
      at: reportedAt,
      grace_period_end: graceEnd,
      violations: ['exceed_egress_quota'],
    });
    // Every member reads it.
    expect(await history('acme-free', 'readonly')).toEqual(started);

    // The job's pass at the same moment, twice: nothing more happens, nothing more is recorded.
    await runJob(fromUnix(reportedAt), 'acme-free');
    expect((await runJob(fromUnix(reportedAt))).usageRestrictionChanged).toEqual(
      expect.not.arrayContaining([await organizationIdOf(db(), 'acme-free')]),
    );
    expect(await history('acme-free')).toEqual(started);

    // The grace end passes with the usage still above: grace_period_over. On PostgreSQL through the
    // operator's command, from two processes at once: the transition is recorded once.
    const afterEnd = fromUnix(graceEnd + HOUR);
    if (database === 'postgres') {
      clock.set(afterEnd);
      const reports = await Promise.all([runCli(afterEnd), runCli(afterEnd)]);
      expect(reports.flatMap((report) => report.errors)).toEqual([]);
      const acmeFree = await organizationIdOf(db(), 'acme-free');
      expect(
        reports.flatMap((report) => report.usageRestrictionChanged).filter((id) => id === acmeFree),
      ).toEqual([acmeFree]);
    } else {
      await runJob(afterEnd);
    }
    expect(await organization('acme-free')).toMatchObject({
      restriction_status: 'grace_period_over',
      restriction_data: { grace_period_end: graceEnd, violations: ['exceed_egress_quota'] },
    });
    expect(await banner('acme-free')).toMatchObject({ kind: 'gracePeriodOver' });
    expect((await project('acmefree1')).status).toBe(200);
    const over = await history('acme-free');
    expect(steps(over)[0]).toEqual([
      'grace_period',
      'grace_period_over',
      'grace_period_ended',
      ['EGRESS'],
    ]);
    expect(over[0]?.at).toBe(unix(afterEnd));
    expect(over).toHaveLength(2);

    // The cycle closes (over its quota: still grace_period_over); the next one goes above again.
    await runJob(fromUnix(cycle.end + 2 * HOUR), 'acme-free');
    expect((await organization('acme-free')).restriction_status).toBe('grace_period_over');
    expect(await history('acme-free')).toHaveLength(2);
    clock.set(fromUnix(cycle.end + 3 * HOUR));
    await reportEgress('acmefree1', egressQuota + 5 * GB);
    expect(await organization('acme-free')).toMatchObject({
      restriction_status: 'restricted',
      restriction_data: { grace_period_end: null, violations: ['exceed_egress_quota'] },
    });
    expect(await banner('acme-free')).toMatchObject({ kind: 'restricted' });
    const refused = await project('acmefree1');
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe(
      'This project’s organization is restricted because it went over its plan’s quota (Egress) after its grace period ended, so all services are paused. To lift the restriction, upgrade to a paid plan.',
    );
    expect((await project('acmefree2')).status).toBe(402);
    const restricted = await history('acme-free');
    expect(steps(restricted)).toEqual([
      ['grace_period_over', 'restricted', 'exceeded_after_grace_period', ['EGRESS']],
      ['grace_period', 'grace_period_over', 'grace_period_ended', ['EGRESS']],
      [null, 'grace_period', 'quota_exceeded', ['EGRESS']],
    ]);
    expect(restricted[0]?.at).toBe(cycle.end + 3 * HOUR);

    // The upgrade, as the plan panel makes it: a card, the preview, then the change at its date.
    clock.set(fromUnix(cycle.end + 4 * HOUR));
    const owner = await asOwner();
    const card = await addCard(owner, 'acme-free', CARDS.visa);
    const base = '/platform/organizations/acme-free/billing';
    const preview = await owner.post<SubscriptionPreview>(
      `${base}/subscription/preview`,
      { tier: 'tier_pro' },
      { Version: '2' },
    );
    expect(preview.body).toMatchObject({ plan_change_type: 'upgrade' });
    const upgraded = await owner.request<{ status: string }>('PUT', `${base}/subscription`, {
      tier: 'tier_pro',
      payment_method: card,
      proration_date: preview.body.proration_date,
    });
    expect(upgraded).toMatchObject({ status: 200, body: { status: 'applied' } });
    expect(await organization('acme-free')).toMatchObject({
      plan: { id: 'pro' },
      restriction_status: null,
      restriction_data: null,
    });
    expect(await banner('acme-free')).toBeNull();
    expect((await project('acmefree1')).status).toBe(200);
    expect((await project('acmefree2')).status).toBe(200);
    const lifted = await history('acme-free');
    expect(steps(lifted)[0]).toEqual(['restricted', null, 'plan_upgraded', []]);
    expect(lifted[0]?.at).toBe(cycle.end + 4 * HOUR);
    expect(lifted).toHaveLength(4);

    // The new Pro cycle starts with no usage: the job's pass lifts nothing and restricts nothing.
    await runJob(fromUnix(cycle.end + 5 * HOUR), 'acme-free');
    expect(await history('acme-free')).toHaveLength(4);
  });

  it('payg-co (Pro, spend cap off): usage above its quotas is billed, never restricted', async () => {
    const at = clock.now();
    const usage = await (await asOwner()).get<OrgUsage>('/platform/organizations/payg-co/usage');
    const egress = usage.body.usages.find((record) => record.metric === 'EGRESS');
    expect(egress).toMatchObject({ capped: false, unlimited: true });
    await reportEgress('paygco1', 2 * (egress?.pricing_free_units ?? 0));
    await runJob(new Date(at.getTime() + DAY * 1000));
    const above = await (await asOwner()).get<OrgUsage>('/platform/organizations/payg-co/usage');
    expect(
      above.body.usages.some(
        (record) => record.metric === 'EGRESS' && record.usage > record.pricing_free_units,
      ),
    ).toBe(true);
    await runJob(new Date(at.getTime() + 10 * DAY * 1000));
    expect((await organization('payg-co')).restriction_status).toBeNull();
    expect(await history('payg-co')).toEqual([]);
  });

  it('a cycle that closes under every quota clears a grace period', async () => {
    // under-co: Free, 27 days into its first cycle, one project.
    const now = unix(clock.now());
    const anchor = now - 27 * DAY;
    const { end: periodEnd } = cycleContaining(anchor, now);
    const org = await db()
      .insertInto('organizations')
      .values({ slug: 'under-co', name: 'Under Co', managed_by: 'platform' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('subscriptions')
      .values({
        organization_id: org.id,
        plan_id: 'free',
        usage_billing_enabled: false,
        billing_via_partner: false,
        billing_partner: null,
        payment_method_type: 'card',
        billing_cycle_anchor: fromUnix(anchor),
        current_period_start: fromUnix(anchor),
        current_period_end: fromUnix(periodEnd),
      })
      .execute();
    await db()
      .insertInto('projects')
      .values({
        organization_id: org.id,
        ref: 'underco1',
        name: 'Under Co Project 1',
        status: 'ACTIVE_HEALTHY',
        compute_size: 'nano',
      })
      .execute();
    const user = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'owner@example.com')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('memberships')
      .values({ organization_id: org.id, user_id: user.id, role: 'owner' })
      .execute();

    await reportEgress('underco1', egressQuota + GB);
    expect((await organization('under-co')).restriction_status).toBe('grace_period');
    // Its cycle closes above the quota before the grace end: still in its grace period.
    await runJob(fromUnix(periodEnd + 2 * HOUR), 'under-co');
    expect((await organization('under-co')).restriction_status).toBe('grace_period');
    // The next cycle closes under every quota: cleared.
    const nextEnd = unix(
      (
        await db()
          .selectFrom('subscriptions')
          .select('current_period_end')
          .where('organization_id', '=', org.id)
          .executeTakeFirstOrThrow()
      ).current_period_end,
    );
    await runJob(fromUnix(nextEnd + 2 * HOUR), 'under-co');
    expect(await organization('under-co')).toMatchObject({
      restriction_status: null,
      restriction_data: null,
    });
    const entries = await history('under-co');
    expect(steps(entries)).toEqual([
      ['grace_period', null, 'cycle_ended_under_quota', []],
      [null, 'grace_period', 'quota_exceeded', ['EGRESS']],
    ]);
    // Recorded at the cycle's end, though the job closed it two hours later.
    expect(entries[0]?.at).toBe(nextEnd);
  });
});

describe.each(testDatabases())('a usage observation that fails (%s)', (database) => {
  const clock = fixedClock(new Date('2026-11-20T00:00:00Z'));
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, clock, env: { METERING_API_KEY: KEY } });
  });
  afterAll(() => server.close());
  const db = () => server.database.db;
  const statusOf = async (slug: string) =>
    (
      await db()
        .selectFrom('organizations')
        .select('restriction_status')
        .where('slug', '=', slug)
        .executeTakeFirstOrThrow()
    ).restriction_status;

  it('keeps the accepted events, and the job goes on with every other organization, then catches up', async () => {
    // acme-free's row refuses every change, as a broken organization would.
    await sql`
      CREATE FUNCTION refuse_acme_free() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.slug = 'acme-free' THEN RAISE EXCEPTION 'acme-free is broken'; END IF;
        RETURN NEW;
      END $$`.execute(db());
    await sql`CREATE TRIGGER refuse_acme_free BEFORE UPDATE ON organizations
      FOR EACH ROW EXECUTE FUNCTION refuse_acme_free()`.execute(db());
    const owner = await server.signIn('owner@example.com');
    const usage = await owner.get<OrgUsage>('/platform/organizations/acme-free/usage');
    const egress = usage.body.usages.find((record) => record.metric === 'EGRESS');
    const missing = (egress?.pricing_free_units ?? 0) - (egress?.usage ?? 0);

    const response = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
      body: JSON.stringify({
        events: [
          {
            id: 'broken-1',
            project_ref: 'acmefree1',
            metric: 'EGRESS',
            usage: missing + GB,
            timestamp: unix(clock.now()) - 60,
          },
        ],
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ accepted: 1, duplicates: 0 });
    const after = await owner.get<OrgUsage>('/platform/organizations/acme-free/usage');
    expect(after.body.usages.find((record) => record.metric === 'EGRESS')?.usage).toBe(
      (egress?.usage ?? 0) + missing + GB,
    );
    expect(await statusOf('acme-free')).toBeNull();

    const acmeFree = await organizationIdOf(db(), 'acme-free');
    const limitsCo = await organizationIdOf(db(), 'limits-co');
    const deps = { db: db(), gateway: server.gateway, clock };
    const first = await runBillingJobs(deps, clock.now());
    expect(first.errors).toEqual([
      {
        kind: 'usage_restriction',
        id: acmeFree,
        message: expect.stringContaining('acme-free is broken'),
      },
    ]);
    // limits-co, seeded above its Free quota with no restriction, stays as the demo world writes it:
    // no new usage of its own has arrived.
    expect(first.usageRestrictionChanged).not.toContain(limitsCo);
    expect(await statusOf('limits-co')).toBeNull();
    const recorded = await db()
      .selectFrom('billing_job_failures')
      .selectAll()
      .where('item_id', '=', acmeFree)
      .executeTakeFirstOrThrow();
    expect(recorded).toMatchObject({ kind: 'usage_restriction', failures: 1 });

    // Mended; once its backoff has passed, the next pass catches up.
    await sql`DROP TRIGGER refuse_acme_free ON organizations`.execute(db());
    expect((await runBillingJobs(deps, clock.now())).deferred).toBeGreaterThanOrEqual(1);
    expect(await statusOf('acme-free')).toBeNull();
    clock.advance(10 * 60);
    const caughtUp = await runBillingJobs(deps, clock.now());
    expect(caughtUp.errors).toEqual([]);
    expect(caughtUp.usageRestrictionChanged).toEqual([acmeFree]);
    expect(await statusOf('acme-free')).toBe('grace_period');
    expect(
      await db()
        .selectFrom('billing_job_failures')
        .select('item_id')
        .where('item_id', '=', acmeFree)
        .execute(),
    ).toEqual([]);
  });
});
