import {
  CREDITED_TO_BALANCE_LABEL,
  formatCents,
  invoiceDetailSchema,
  upcomingInvoiceSchema,
  type SubscriptionPreview,
  type SubscriptionUpdateResponse,
  type Subscription,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { organizationIdOf } from './support/payments.ts';
import { pdfText } from './support/pdf-text.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const base = (slug: string) => `/platform/organizations/${slug}/billing`;

/**
 * What a preview shows is what is billed. A downgrade scheduled for the cycle's end
 * (fly-co, billed via the hosting partner) gives no unused time back, so its preview has no such line;
 * a change invoice whose lines sum below zero is $0.00 due, and says that the difference went to the
 * credit balance (API, PDF), as its preview does.
 */
describe.each(testDatabases())('what a plan change shows (%s)', (database) => {
  const clock = fixedClock(new Date('2026-11-20T12:00:00Z'));
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({
      database,
      clock,
      env: { SESSION_TTL_HOURS: String(24 * 90) },
    });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const subscription = async (slug: string) =>
    (await owner.get<Subscription>(`${base(slug)}/subscription`)).body;
  const preview = (slug: string, tier: string) =>
    owner.post<SubscriptionPreview>(
      `${base(slug)}/subscription/preview`,
      { tier },
      { Version: '2' },
    );
  const change = (slug: string, body: Record<string, unknown>) =>
    owner.request<SubscriptionUpdateResponse>('PUT', `${base(slug)}/subscription`, body);
  const invoice = async (slug: string, id: string) =>
    invoiceDetailSchema.parse((await owner.get(`${base(slug)}/invoices/${id}`)).body);

  it('fly-co → Free, scheduled: the preview gives no unused time back and charges nothing; its lines are the cycle’s usage so far', async () => {
    const before = await subscription('fly-co');
    const priced = await preview('fly-co', 'tier_free');
    expect(priced.status).toBe(200);
    const shown = priced.body;
    expect(shown.effective_at).toBe('end_of_billing_period');
    expect(shown.breakdown.some((line) => line.description.startsWith('Unused time'))).toBe(false);
    // To Free: no fee for the next cycle; the usage so far, as the upcoming invoice shows it now.
    expect(shown.breakdown.filter((line) => line.kind !== 'usage')).toEqual([]);
    const upcoming = upcomingInvoiceSchema.parse(
      (await owner.get(`${base('fly-co')}/invoices/upcoming`)).body,
    );
    expect(shown.breakdown.map((line) => [line.description, line.total_price])).toEqual(
      upcoming.lines
        .slice(1)
        .filter((line) => line.amount !== 0)
        .map((line) => [line.description, line.amount]),
    );
    expect(shown.total).toBe(shown.breakdown.reduce((sum, line) => sum + line.total_price, 0));
    expect(shown).toMatchObject({
      charge_today: 0,
      credit_applied: 0,
      credited_to_balance: 0,
      balance_after: before.customer_balance,
    });

    // At the end the billing job applies it: Free, and nothing given back to the balance.
    expect((await change('fly-co', { tier: 'tier_free' })).body.status).toBe('scheduled');
    const closeAt = new Date((before.current_period_end + 2 * 3600) * 1000);
    clock.set(closeAt);
    await runBillingJobs(
      { db: db(), gateway: server.gateway, clock },
      closeAt,
      await organizationIdOf(db(), 'fly-co'),
      60,
    );
    const after = await subscription('fly-co');
    expect(after.plan.id).toBe('free');
    expect(after.customer_balance).toBe(shown.balance_after);
  });

  it('acme-team → Pro: the change invoice sums below zero, is $0.00 due, and says the difference went to the credit balance, as the preview did', async () => {
    clock.set(new Date('2026-11-20T12:00:00Z'));
    const before = await subscription('acme-team');
    const priced = await preview('acme-team', 'tier_payg');
    expect(priced.status).toBe(200);
    const { total } = priced.body;
    expect(total).toBeLessThan(0);
    expect(priced.body).toMatchObject({ charge_today: 0, credited_to_balance: -total });
    expect(priced.body.balance_after).toBe(before.customer_balance - total);

    const done = await change('acme-team', {
      tier: 'tier_payg',
      proration_date: priced.body.proration_date,
    });
    expect(done.body.status).toBe('applied');
    expect((await subscription('acme-team')).customer_balance).toBe(priced.body.balance_after);

    const applied = await db()
      .selectFrom('plan_changes')
      .select('invoice_id')
      .where('organization_id', '=', await organizationIdOf(db(), 'acme-team'))
      .where('status', '=', 'applied')
      .executeTakeFirstOrThrow();
    const issued = await invoice('acme-team', applied.invoice_id ?? '');
    expect(issued).toMatchObject({
      subtotal: total,
      amount_due: 0,
      credit_applied: 0,
      credited_to_balance: -total,
    });
    const pdf = await owner.bytes(`${base('acme-team')}/invoices/${issued.id}/pdf`);
    expect(pdf.status).toBe(200);
    const text = await pdfText(pdf.body);
    expect(text).toContain(CREDITED_TO_BALANCE_LABEL);
    expect(text).toContain(formatCents(-total));
  });
});
