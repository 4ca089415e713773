import { upcomingInvoiceSchema, type UpcomingInvoice } from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import {
  PRICE,
  addonCents,
  computeLineCents,
  cycleFacts,
  databaseOverageCents,
  egressOverageCents,
  monthlyActiveUsersOverageCents,
} from './support/pricing-oracle.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

function amounts(invoice: UpcomingInvoice): Record<string, number> {
  return Object.fromEntries(invoice.lines.map((line) => [line.description, line.amount]));
}

const METERING_KEY = 'test-metering-key-0123456789';

describe.each(testDatabases())('the upcoming invoice (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database, clock, env: { METERING_API_KEY: METERING_KEY } });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  async function upcoming(slug: string): Promise<UpcomingInvoice> {
    const response = await owner.get(`/platform/organizations/${slug}/billing/invoices/upcoming`, {
      Version: '2',
    });
    expect(response.status).toBe(200);
    return upcomingInvoiceSchema.parse(response.body);
  }

  it('acme-pro: equals the price list applied to its usage, to the cent', async () => {
    const invoice = await upcoming('acme-pro');
    const facts = await cycleFacts(server.database.db, 'acme-pro');
    const micro = computeLineCents(facts, 'primary', 'micro');
    const small = computeLineCents(facts, 'primary', 'small');
    const medium = computeLineCents(facts, 'primary', 'medium');
    const replica = computeLineCents(facts, 'read_replica', 'small');
    const branching = computeLineCents(facts, 'branch', 'branch');
    const compute = micro + small + medium + replica + branching;
    expect(amounts(invoice)).toEqual({
      'Pro Plan': PRICE.proPlanCents,
      'Compute Hours Micro': micro,
      'Compute Hours Small': small,
      'Compute Hours Medium': medium,
      'Replica Compute Hours Small': replica,
      'Branching Compute Hours': branching,
      'Compute Credits': -Math.min(PRICE.computeCreditsCents, compute),
      'Custom Domain': addonCents(PRICE.customDomainMonthlyCents, facts, clock.now()),
    });
    // The spend cap is on: usage beyond the quota is never billed.
    expect(invoice.lines.some((line) => line.usage_metric === 'EGRESS')).toBe(false);
  });

  it('acme-pro: the compute lines break down per project and add up', async () => {
    const invoice = await upcoming('acme-pro');
    for (const line of invoice.lines.filter((candidate) => candidate.breakdown.length > 0)) {
      const sum = line.breakdown.reduce((total, entry) => total + entry.amount, 0);
      expect(sum).toBe(line.amount);
    }
    const replica = invoice.lines.find((line) => line.metadata.is_read_replica);
    expect(replica?.breakdown.map((entry) => entry.project_ref)).toEqual(['acmepro1']);
    const branching = invoice.lines.find((line) => line.metadata.is_branch);
    expect(branching?.breakdown.map((entry) => entry.project_ref)).toEqual(['acmepro2']);
  });

  it('payg-co: bills usage beyond the quota with the spend cap off', async () => {
    const invoice = await upcoming('payg-co');
    const facts = await cycleFacts(server.database.db, 'payg-co');
    const micro = computeLineCents(facts, 'primary', 'micro');
    const small = computeLineCents(facts, 'primary', 'small');
    const egress = egressOverageCents(facts);
    const databaseSize = databaseOverageCents(facts);
    const users = monthlyActiveUsersOverageCents(facts);
    expect(egress).toBeGreaterThan(0);
    expect(databaseSize).toBeGreaterThan(0);
    expect(users).toBeGreaterThan(0);
    expect(amounts(invoice)).toEqual({
      'Pro Plan': PRICE.proPlanCents,
      'Compute Hours Micro': micro,
      'Compute Hours Small': small,
      'Compute Credits': -Math.min(PRICE.computeCreditsCents, micro + small),
      Egress: egress,
      'Database Size': databaseSize,
      'Monthly Active Users': users,
    });
  });

  it.each(['acme-pro', 'payg-co', 'acme-team', 'acme-free'])(
    '%s: the total is the sum of the lines and the projection is not below it',
    async (slug) => {
      const invoice = await upcoming(slug);
      expect(invoice.amount_total).toBe(
        invoice.lines.reduce((total, line) => total + line.amount, 0),
      );
      expect(invoice.amount_projected).toBeGreaterThanOrEqual(invoice.amount_total);
    },
  );

  it('acme-free owes nothing', async () => {
    const invoice = await upcoming('acme-free');
    expect(invoice.amount_total).toBe(0);
    expect(invoice.lines.every((line) => line.amount === 0)).toBe(true);
  });

  it('describes the subscription and the plans', async () => {
    const subscription = await owner.get<{
      plan: { id: string };
      usage_billing_enabled: boolean;
      customer_balance: number;
      current_period_start: number;
      current_period_end: number;
      project_addons: {
        ref: string;
        addons: { type: string; variant: { identifier: string } }[];
      }[];
    }>('/platform/organizations/acme-pro/billing/subscription');
    expect(subscription.body).toMatchObject({
      plan: { id: 'pro' },
      usage_billing_enabled: false,
      customer_balance: 5000,
    });
    expect(subscription.body.current_period_end).toBeGreaterThan(Date.now() / 1000);
    const first = subscription.body.project_addons.find((project) => project.ref === 'acmepro1');
    expect(first?.addons.map((addon) => addon.variant.identifier)).toEqual([
      'ci_micro',
      'cd_default',
    ]);

    const plans = await owner.get<{
      plans: {
        id: string;
        is_current: boolean;
        change_type: string;
        effective_at: string | null;
      }[];
    }>('/platform/organizations/acme-pro/billing/plans');
    expect(
      plans.body.plans.map((plan) => [
        plan.id,
        plan.is_current,
        plan.change_type,
        plan.effective_at,
      ]),
    ).toEqual([
      ['free', false, 'downgrade', 'now'],
      ['pro', true, 'none', null],
      ['team', false, 'upgrade', 'now'],
      ['enterprise', false, 'upgrade', 'now'],
    ]);
  });

  it('reports usage against the quota for the cycle', async () => {
    const response = await owner.get<{
      usage_billing_enabled: boolean;
      usages: {
        metric: string;
        usage: number;
        pricing_free_units: number;
        cost: number;
        capped: boolean;
      }[];
    }>('/platform/organizations/payg-co/usage');
    const egress = response.body.usages.find((usage) => usage.metric === 'EGRESS');
    expect(egress?.usage).toBeGreaterThan(250_000_000_000);
    expect(egress?.pricing_free_units).toBe(250_000_000_000);
    expect(egress?.capped).toBe(false);
    expect(egress?.cost).toBe(amounts(await upcoming('payg-co')).Egress);
    const limits = await owner.get<typeof response.body>('/platform/organizations/limits-co/usage');
    const limitedEgress = limits.body.usages.find((usage) => usage.metric === 'EGRESS');
    expect(limitedEgress?.capped).toBe(true);
    expect(limitedEgress?.usage).toBeGreaterThan(limitedEgress?.pricing_free_units ?? Infinity);
  });

  it('gives daily usage between two days, optionally for one project', async () => {
    const today = new Date(clock.now().getTime()).toISOString().slice(0, 10);
    const weekAgo = new Date(clock.now().getTime() - 6 * 86_400_000).toISOString().slice(0, 10);
    const all = await owner.get<{ data: { date: string; metric: string; usage: number }[] }>(
      `/platform/organizations/acme-pro/usage/daily?start=${weekAgo}&end=${today}`,
    );
    expect(all.status).toBe(200);
    const egressDays = all.body.data.filter((entry) => entry.metric === 'EGRESS');
    expect(egressDays.length).toBeGreaterThanOrEqual(6);
    const one = await owner.get<typeof all.body>(
      `/platform/organizations/acme-pro/usage/daily?start=${weekAgo}&end=${today}&projectRef=acmepro1`,
    );
    const oneEgress = one.body.data.filter((entry) => entry.metric === 'EGRESS');
    for (const day of oneEgress) {
      const total = egressDays.find((entry) => entry.date === day.date);
      expect(day.usage).toBeLessThan(total?.usage ?? 0);
    }
    const bad = await owner.get<{ message: string }>(
      `/platform/organizations/acme-pro/usage/daily?start=${today}&end=${weekAgo}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('end must not be before start');
    const missing = await owner.get<{ message: string }>(
      `/platform/organizations/acme-pro/usage/daily?end=${today}`,
    );
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('Start date is required');
    const otherProject = await owner.get(
      `/platform/organizations/acme-pro/usage/daily?start=${weekAgo}&end=${today}&projectRef=paygco1`,
    );
    expect(otherProject.status).toBe(404);
  });

  it('projects the same total a second later: from the next whole hour, and says how', async () => {
    const now = clock.now();
    // Ten minutes into the current hour (the hour before, if that is still to come).
    let at = Math.floor(now.getTime() / 3_600_000) * 3_600_000 + 600_000;
    if (at > now.getTime()) at -= 3_600_000;
    try {
      clock.set(new Date(at));
      const first = await upcoming('payg-co');
      clock.set(new Date(at + 1000));
      const second = await upcoming('payg-co');
      expect(second.amount_projected).toBe(first.amount_projected);
      expect(second.projection).toEqual(first.projection);
      const from = Date.parse(first.projection.from);
      expect(from).toBe(at - 600_000 + 3_600_000);
      expect(first.projection.remaining_hours).toBe(
        (Date.parse(first.billing_cycle_end) - from) / 3_600_000,
      );
      expect(first.projection.measured_hours).toBe(
        (from - Date.parse(first.billing_cycle_start)) / 3_600_000,
      );
      const sum = first.projection.lines.reduce((total, line) => total + line.amount, 0);
      expect(sum).toBe(first.amount_projected);
      // What runs keeps running for the hours left: each compute line's hours grow by exactly that.
      for (const line of first.lines.filter((l) => l.usage_metric?.startsWith('COMPUTE_HOURS'))) {
        const projected = first.projection.lines.find((l) => l.description === line.description);
        expect(projected?.quantity).toBeCloseTo(
          line.quantity + first.projection.remaining_hours * line.breakdown.length,
          6,
        );
      }
    } finally {
      clock.set(now);
    }
  });

  it('shows usage reported a moment ago, within the same second (the clock stands still here)', async () => {
    const before = await upcoming('payg-co');
    const reported = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${METERING_KEY}` },
      body: JSON.stringify({
        events: [
          {
            id: `just-now-${database}`,
            project_ref: 'paygco1',
            metric: 'EGRESS',
            usage: 40_000_000_000,
            timestamp: Math.floor(clock.now().getTime() / 1000) - 60,
          },
        ],
      }),
    });
    expect(reported.status).toBe(200);
    const after = await upcoming('payg-co');
    const egress = egressOverageCents(await cycleFacts(server.database.db, 'payg-co'));
    expect(amounts(after).Egress).toBe(egress);
    expect(egress).toBeGreaterThan(amounts(before).Egress ?? 0);
    expect(after.amount_total).toBe(before.amount_total + egress - (amounts(before).Egress ?? 0));
  });
});
