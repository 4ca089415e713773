import type {
  CustomerProfile,
  InvoiceDetail,
  Invoice,
  Organization,
  OrgUsage,
  PaymentMethods,
  Subscription,
  UpcomingInvoice,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, addCard, organizationIdOf } from './support/payments.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

// The field names of the platform API the spec was derived from (docs/decisions/008), each checked
// against the data the existing fields come from.

const org = (slug: string) => `/platform/organizations/${slug}`;
const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

describe.each(testDatabases())('platform field names (%s)', (database) => {
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const get = async <T>(path: string) => {
    const response = await owner.get<T>(path);
    expect(response.status).toBe(200);
    return response.body;
  };
  const subscriptionOf = (slug: string) => get<Subscription>(`${org(slug)}/billing/subscription`);
  const upcomingOf = (slug: string) =>
    get<UpcomingInvoice>(`${org(slug)}/billing/invoices/upcoming`);

  it('the subscription: its anchor, next invoice, add-ons with their prices, no scheduled change', async () => {
    const subscription = await subscriptionOf('acme-pro');
    const anchor = await server.database.db
      .selectFrom('subscriptions')
      .select('billing_cycle_anchor')
      .where('organization_id', '=', await organizationIdOf(server.database.db, 'acme-pro'))
      .executeTakeFirstOrThrow();
    expect(subscription.billing_cycle_anchor).toBe(
      Math.floor(anchor.billing_cycle_anchor.getTime() / 1000),
    );
    expect(subscription.billing_cycle_anchor).toBeLessThanOrEqual(
      subscription.current_period_start,
    );
    expect(subscription.next_invoice_at).toBe(subscription.current_period_end);
    expect(subscription.scheduled_plan_change).toBeNull();

    const variants = subscription.project_addons.flatMap((project) =>
      project.addons.map((addon) => ({ ref: project.ref, type: addon.type, ...addon.variant })),
    );
    expect(variants).toContainEqual({
      ref: 'acmepro1',
      type: 'custom_domain',
      name: 'Custom Domain',
      identifier: 'cd_default',
      price: 1000,
      price_description: '$10.00 per month',
      price_interval: 'monthly',
      price_type: 'fixed',
    });
    const micro = variants.find((v) => v.type === 'compute_instance' && v.name === 'Micro');
    expect(micro).toMatchObject({
      price: 1.344,
      price_description: '$0.01344 per hour',
      price_interval: 'hourly',
      price_type: 'usage',
    });
    // `addons` sums the monthly add-ons over the projects: here the one custom domain.
    expect(subscription.addons).toEqual([
      {
        type: 'custom_domain',
        identifier: 'cd_default',
        name: 'Custom Domain',
        quantity: 1,
        price: 1000,
      },
    ]);

    const free = await subscriptionOf('acme-free');
    expect(free.addons).toEqual([]);
    for (const project of free.project_addons) {
      expect(project.addons[0]?.variant).toMatchObject({ price: 0, price_interval: 'hourly' });
    }
  });

  it('fly-co’s scheduled downgrade is the subscription’s scheduled_plan_change', async () => {
    const scheduled = await owner.request('PUT', `${org('fly-co')}/billing/subscription`, {
      tier: 'tier_free',
    });
    expect(scheduled.status).toBe(200);
    const subscription = await subscriptionOf('fly-co');
    expect(subscription.scheduled_plan_change).toMatchObject({
      target_plan: 'free',
      at: subscription.current_period_end,
    });
    const cancelled = await owner.request(
      'DELETE',
      `${org('fly-co')}/billing/subscription/scheduled-change`,
    );
    expect(cancelled.status).toBeLessThan(300);
    expect((await subscriptionOf('fly-co')).scheduled_plan_change).toBeNull();
  });

  it('the upcoming invoice: its cycle in ISO, USD, the balance and the subscription', async () => {
    const [subscription, upcoming] = await Promise.all([
      subscriptionOf('acme-pro'),
      upcomingOf('acme-pro'),
    ]);
    expect(upcoming.billing_cycle_start).toBe(iso(subscription.current_period_start));
    expect(upcoming.billing_cycle_end).toBe(iso(subscription.current_period_end));
    expect(upcoming.currency).toBe('usd');
    // The same sign as the subscription's customer_balance: acme-pro's $50 of credit is 5000.
    expect(upcoming.customer_balance).toBe(5000);
    expect(upcoming.customer_balance).toBe(subscription.customer_balance);
    const organizationId = await organizationIdOf(server.database.db, 'acme-pro');
    expect(upcoming.subscription_id).toBe(`sub_${organizationId.replaceAll('-', '')}`);
  });

  it('each upcoming line: a quantity at a unit price that makes its amount, usage-based or not', async () => {
    const lines = [...(await upcomingOf('acme-pro')).lines, ...(await upcomingOf('payg-co')).lines];
    for (const line of lines) {
      expect(line.proration).toBe(false);
      expect(line.usage_based).toBe(line.usage_metric !== null);
      expect(Math.abs(line.quantity * line.unit_price - line.amount)).toBeLessThanOrEqual(0.5);
    }
    const byDescription = new Map(lines.map((line) => [line.description, line]));
    expect(byDescription.get('Pro Plan')).toMatchObject({
      quantity: 1,
      unit_price: 2500,
      usage_based: false,
    });
    const micro = byDescription.get('Compute Hours Micro');
    expect(micro).toMatchObject({ unit_price: 1.344, usage_based: true });
    expect(micro?.quantity).toBeCloseTo(micro?.usage_original ?? -1, 2);
    // Months of credits at minus the month's $10.00.
    expect(byDescription.get('Compute Credits')).toMatchObject({
      unit_price: -1000,
      usage_based: false,
    });
    expect(byDescription.get('Custom Domain')).toMatchObject({
      unit_price: 1000,
      usage_based: true,
    });
    // payg-co's egress beyond its 250 GB, in GB at 9¢.
    const egress = byDescription.get('Egress');
    expect(egress).toMatchObject({ unit_price: 9, usage_based: true });
    expect(egress?.quantity).toBeCloseTo((egress?.usage_original ?? 0) / 1e9 - 250, 4);
  });

  it('a plan change invoice marks its unused time, and only it, as proration', async () => {
    const card = await addCard(owner, 'idle-co', CARDS.visa);
    const changed = await owner.request('PUT', `${org('idle-co')}/billing/subscription`, {
      tier: 'tier_team',
      payment_method: card,
    });
    expect(changed.status).toBe(200);
    const [newest] = await get<Invoice[]>(`${org('idle-co')}/billing/invoices?offset=0&limit=1`);
    expect(newest).toBeDefined();
    const detail = await get<InvoiceDetail>(`${org('idle-co')}/billing/invoices/${newest?.id}`);
    const unused = detail.lines.find((line) => line.description === 'Unused time on Pro plan');
    expect(unused).toMatchObject({ proration: true, unit_price: -2500, usage_based: false });
    expect(Math.abs((unused?.quantity ?? 0) * -2500 - (unused?.amount ?? 1))).toBeLessThanOrEqual(
      0.5,
    );
    expect(detail.lines.filter((line) => line.proration)).toHaveLength(1);
    expect(detail.lines.find((line) => line.description === 'Team plan')).toMatchObject({
      proration: false,
      quantity: 1,
      unit_price: 59_900,
    });
  });

  it('invoices answer their subscription', async () => {
    const [subscription, invoices] = await Promise.all([
      upcomingOf('acme-pro'),
      get<Invoice[]>(`${org('acme-pro')}/billing/invoices?offset=0&limit=5`),
    ]);
    expect(invoices).toHaveLength(5);
    for (const invoice of invoices) expect(invoice.subscription).toBe(subscription.subscription_id);
  });

  it('the organization answers its spend cap setting', async () => {
    expect((await get<Organization>(org('acme-pro'))).usage_billing_enabled).toBe(false);
    expect((await get<Organization>(org('payg-co'))).usage_billing_enabled).toBe(true);
    expect((await get<Organization>(org('payg-co'))).usage_billing_enabled).toBe(
      (await subscriptionOf('payg-co')).usage_billing_enabled,
    );
  });

  it('payment methods answer type, created and has_address', async () => {
    const methods = await get<PaymentMethods>(`${org('acme-pro')}/payments`);
    expect(methods.data).toHaveLength(2);
    const rows = await server.database.db
      .selectFrom('payment_methods')
      .select(['id', 'created_at'])
      .where('organization_id', '=', await organizationIdOf(server.database.db, 'acme-pro'))
      .execute();
    const createdOf = new Map(rows.map((row) => [row.id, row.created_at.getTime() / 1000]));
    for (const method of methods.data) {
      expect(method.type).toBe('card');
      expect(method.created).toBe(Math.floor(createdOf.get(method.id) ?? 0));
      // The simulator's card form asks for no billing address.
      expect(method.has_address).toBe(false);
    }
  });

  it('the customer answers its balance, email and partner billing', async () => {
    const customer = await get<CustomerProfile>(`${org('acme-pro')}/customer`);
    expect(customer).toMatchObject({
      balance: 5000,
      email: 'billing@acme.example.com',
      billing_via_partner: false,
    });
    const fly = await get<CustomerProfile>(`${org('fly-co')}/customer`);
    expect(fly.billing_via_partner).toBe(true);
    expect(fly.balance).toBe((await subscriptionOf('fly-co')).customer_balance);
  });

  it('usage records answer their pricing strategy, price and unrounded usage', async () => {
    const payg = await get<OrgUsage>(`${org('payg-co')}/usage`);
    const byMetric = new Map(payg.usages.map((record) => [record.metric, record]));
    expect(byMetric.get('EGRESS')).toMatchObject({
      pricing_strategy: 'UNIT',
      unit_price_desc: '$0.09 per GB',
    });
    expect(byMetric.get('FUNCTION_INVOCATIONS')).toMatchObject({
      pricing_strategy: 'PACKAGE',
      unit_price_desc: '$2.00 per million',
    });
    for (const record of payg.usages) {
      expect(Math.abs(record.usage_original - record.usage)).toBeLessThanOrEqual(0.005);
    }
    // The upcoming invoice's egress line counts the same usage.
    const egress = (await upcomingOf('payg-co')).lines.find((l) => l.usage_metric === 'EGRESS');
    expect(byMetric.get('EGRESS')?.usage_original).toBeCloseTo(egress?.usage_original ?? -1, 2);
    const free = await get<OrgUsage>(`${org('acme-free')}/usage`);
    expect(free.usages.every((record) => record.pricing_strategy === 'NONE')).toBe(true);
  });
});
