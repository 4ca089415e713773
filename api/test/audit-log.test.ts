import {
  accessTokenCreatedSchema,
  auditLogPageSchema,
  describeAuditEntry,
  type AuditLogEntry,
} from '@meterline/domain';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { insertPaymentMethod } from '../src/repositories/payment-methods.ts';
import { newId } from '../src/lib/ids.ts';
import { CARDS, FUTURE, addCard, captchaToken, organizationIdOf } from './support/payments.ts';
import {
  signInEveryone,
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

// Product decisions §13: the audit log of every billing change.

const org = '/platform/organizations/acme-pro';
const AGENT = 'audit-test-agent/1.0';

describe.each(testDatabases())('the audit log (%s)', (database) => {
  // The demo world's clock, moved a minute per change so entries are apart in time.
  const clock = fixedClock(new Date('2026-11-20T12:00:00Z'));
  let server: TestServer;
  let as: (user: string) => TestClient;
  let ownerId: string;

  beforeAll(async () => {
    server = await startTestServer({ database, clock });
    as = await signInEveryone(server);
    const owner = await server.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'owner@example.com')
      .executeTakeFirstOrThrow();
    ownerId = owner.id;
  });
  afterAll(() => server.close());

  const db = () => server.database.db;

  async function page(query = '', user = 'owner') {
    const response = await as(user).get(`${org}/audit-log${query}`);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return auditLogPageSchema.parse(response.body);
  }

  /** Every entry of acme-pro, newest first, walked page by page. */
  async function everything(query = '', limit = 100): Promise<AuditLogEntry[]> {
    const entries: AuditLogEntry[] = [];
    let cursor: string | null = null;
    do {
      const next = await page(
        `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      entries.push(...next.entries);
      cursor = next.next_cursor;
    } while (cursor);
    return entries;
  }

  /** What a change wrote: the entries newer than those there before it. */
  async function written(change: () => Promise<unknown>): Promise<AuditLogEntry[]> {
    const seen = new Set((await everything()).map((entry) => entry.id));
    clock.advance(60);
    await change();
    return (await everything()).filter((entry) => !seen.has(entry.id));
  }

  const owner = () => ({ type: 'user', id: ownerId, email: 'owner@example.com' });

  it("changing acme-pro's address writes one entry: who, from where, the address before and after", async () => {
    const before = await as('owner').get<{ billing_name: string; address: unknown }>(
      `${org}/customer`,
    );
    const address = {
      line1: '1 Audit Street',
      city: 'Dublin',
      postal_code: 'D02 X285',
      country: 'IE',
    };
    const entries = await written(async () => {
      const response = await as('owner').request(
        'PUT',
        `${org}/customer`,
        { billing_name: before.body.billing_name, address },
        { 'user-agent': AGENT },
      );
      expect(response.status).toBe(200);
    });
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({
      actor: owner(),
      action: 'customer.updated',
      target: { type: 'customer' },
      before: { address: before.body.address },
      after: { address },
      ip: '127.0.0.1',
      user_agent: AGENT,
      created_at: Math.floor(clock.now().getTime() / 1000),
    });
    // Only what changed: the name stayed.
    expect(Object.keys(entry?.after ?? {})).toEqual(['address']);
    expect(describeAuditEntry(entry as AuditLogEntry)).toBe(
      'owner@example.com changed the billing address',
    );
  });

  it('a refused change writes nothing: invalid input, a forbidden role, an unchanged value', async () => {
    const entries = await written(async () => {
      const invalid = await as('owner').request('PUT', `${org}/customer`, {
        billing_name: 'x',
        address: { line1: '', city: 'Dublin', postal_code: '1', country: 'ZZ' },
      });
      expect(invalid.status).toBe(400);
      const forbidden = await as('developer').request('PUT', `${org}/tax-ids`, {
        type: 'eu_vat',
        value: 'IE1234567T',
        country: 'IE',
      });
      expect(forbidden.status).toBe(403);
      const customer = await as('owner').get<Record<string, unknown>>(`${org}/customer`);
      const same = await as('owner').request('PUT', `${org}/customer`, {
        billing_name: customer.body.billing_name,
        address: customer.body.address,
      });
      expect(same.status).toBe(200);
    });
    expect(entries).toEqual([]);
  });

  it('adding and removing a card: one entry each, brand and last 4 digits only', async () => {
    let cardId = '';
    const added = await written(async () => {
      cardId = await addCard(as('owner'), 'acme-pro', CARDS.visa);
    });
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      actor: owner(),
      action: 'payment_method.added',
      target: { type: 'payment_method', id: cardId },
      before: null,
      after: { brand: 'visa', last4: '4242', is_default: false },
      ip: '127.0.0.1',
    });
    expect(describeAuditEntry(added[0] as AuditLogEntry)).toBe(
      'owner@example.com added a Visa card ending 4242',
    );

    const removed = await written(async () => {
      const response = await as('owner').request('DELETE', `${org}/payments`, {
        card_id: cardId,
      });
      expect(response.status).toBe(200);
    });
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({
      actor: owner(),
      action: 'payment_method.removed',
      target: { type: 'payment_method', id: cardId },
      before: { brand: 'visa', last4: '4242', is_default: false, is_backup: false },
      after: null,
    });
    // No card number, nor the provider's reference to it, anywhere in the log.
    const stored = JSON.stringify(await db().selectFrom('audit_log').selectAll().execute());
    expect(stored).not.toContain(CARDS.visa);
    expect(stored).not.toMatch(/"provider_payment_method_id"|pm_sim/);
  });

  it('topping up writes one entry with the balance before and after; a declined top-up no success', async () => {
    const cards = await as('owner').get<{ defaultPaymentMethodId: string }>(`${org}/payments`);
    const topUp = (paymentMethodId: string, key: string) =>
      as('owner').request(
        'POST',
        `${org}/billing/credits/top-up`,
        { amount: 100, payment_method_id: paymentMethodId, hcaptcha_token: '' },
        { 'idempotency-key': key },
      );
    const entries = await written(async () => {
      const body = {
        amount: 100,
        payment_method_id: cards.body.defaultPaymentMethodId,
        hcaptcha_token: await captchaToken(as('owner')),
      };
      const response = await as('owner').request('POST', `${org}/billing/credits/top-up`, body, {
        'idempotency-key': 'audit-top-up',
      });
      expect(response.status).toBe(200);
    });
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({ actor: owner(), action: 'credits.topped_up', ip: '127.0.0.1' });
    const balanceBefore = entry?.before?.balance_cents as number;
    expect(entry?.after).toMatchObject({
      balance_cents: balanceBefore + 10_000,
      amount_cents: 10_000,
      card: { brand: 'visa', last4: '4242' },
    });

    // A declined card: a failure is recorded, never a success, and the balance is untouched.
    const declining = await server.gateway.createCard({
      number: CARDS.declined,
      expMonth: FUTURE.exp_month,
      expYear: FUTURE.exp_year,
      cvc: '123',
    });
    const declinedId = newId('pm');
    await insertPaymentMethod(db(), {
      id: declinedId,
      organizationId: await organizationIdOf(db(), 'acme-pro'),
      provider: server.gateway.provider,
      providerPaymentMethodId: declining.providerPaymentMethodId,
      brand: declining.brand,
      last4: declining.last4,
      expMonth: declining.expMonth,
      expYear: declining.expYear,
      isDefault: false,
    });
    const failed = await written(async () => {
      const declined = await as('owner').request(
        'POST',
        `${org}/billing/credits/top-up`,
        {
          amount: 100,
          payment_method_id: declinedId,
          hcaptcha_token: await captchaToken(as('owner')),
        },
        { 'idempotency-key': 'audit-top-up-declined' },
      );
      expect(declined.status).toBe(402);
      // A refused captcha is no payment at all: nothing.
      expect((await topUp(declinedId, 'audit-top-up-no-captcha')).status).toBe(400);
    });
    expect(failed.map((item) => item.action)).toEqual(['credits.top_up_failed']);
    expect(failed[0]).toMatchObject({
      actor: owner(),
      after: { amount_cents: 10_000, failure_message: 'Your card was declined.' },
    });
  });

  it('turning the spend cap off writes one entry: spend_cap true, then false', async () => {
    const entries = await written(async () => {
      const response = await as('owner').request(
        'PUT',
        `${org}/billing/subscription`,
        { tier: 'tier_payg' },
        { 'idempotency-key': 'audit-cap-off' },
      );
      expect(response.status).toBe(200);
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: owner(),
      action: 'spend_cap.updated',
      target: { type: 'subscription' },
      before: { spend_cap: true },
      after: { spend_cap: false, charged_cents: 0 },
    });
    expect(describeAuditEntry(entries[0] as AuditLogEntry)).toBe(
      'owner@example.com turned the spend cap off',
    );
  });

  it('owners and administrators read it; developers and read-only members get 403, outsiders 404', async () => {
    expect((await as('admin').get(`${org}/audit-log`)).status).toBe(200);
    expect((await as('admin').get(`${org}/audit-log/export`)).status).toBe(200);
    for (const user of ['developer', 'readonly']) {
      const refused = await as(user).get(`${org}/audit-log`);
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        message: 'You do not have permission to do this: it needs billing read on audit log',
      });
      expect((await as(user).get(`${org}/audit-log/export`)).status).toBe(403);
    }
    expect((await as('outsider').get(`${org}/audit-log`)).status).toBe(404);
    expect((await server.client().get(`${org}/audit-log`)).status).toBe(401);
  });

  it("a token's creation and revocation are the owner's; a token reads billing (unlogged), not the log", async () => {
    let secret = '';
    let tokenId = '';
    const created = await written(async () => {
      const answer = await as('owner').post(`${org}/tokens`, {
        name: 'Auditor',
        expires_in_days: 7,
      });
      expect(answer.status).toBe(201);
      ({ secret } = accessTokenCreatedSchema.parse(answer.body));
      tokenId = accessTokenCreatedSchema.parse(answer.body).token.id;
    });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      actor: owner(),
      action: 'access_token.created',
      target: { type: 'access_token', id: tokenId },
      after: { name: 'Auditor', scope: 'billing:read' },
    });
    const stored = JSON.stringify(await db().selectFrom('audit_log').selectAll().execute());
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice(0, 12));

    const withToken = (path: string) =>
      fetch(server.url + path, { headers: { authorization: `Bearer ${secret}` } });
    const reads = await written(async () => {
      expect((await withToken(`${org}/billing/invoices/upcoming`)).status).toBe(200);
      expect((await withToken(`${org}/audit-log`)).status).toBe(403);
      expect((await withToken(`${org}/audit-log/export`)).status).toBe(403);
    });
    expect(reads).toEqual([]);

    const revoked = await written(async () => {
      expect((await as('admin').request('DELETE', `${org}/tokens/${tokenId}`)).status).toBe(204);
    });
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({
      actor: { type: 'user', email: 'admin@example.com' },
      action: 'access_token.revoked',
      before: { name: 'Auditor' },
    });
  });

  it('pages never skip or repeat an entry, even with entries written between pages', async () => {
    const all = await everything();
    // The demo world's history (payments, restrictions, the voided invoice) and this file's changes.
    expect(all.length).toBeGreaterThan(20);
    expect(new Set(all.map((entry) => entry.id)).size).toBe(all.length);
    const order = all.map((entry) => entry.created_at);
    expect(order).toEqual([...order].sort((a, b) => b - a));

    const walked: string[] = [];
    let cursor: string | null = null;
    let round = 0;
    do {
      const next = await page(`?limit=7${cursor ? `&cursor=${cursor}` : ''}`);
      expect(next.entries.length).toBeLessThanOrEqual(7);
      walked.push(...next.entries.map((entry) => entry.id));
      cursor = next.next_cursor;
      // Someone changes billing meanwhile: a new entry at the top, which must not move the pages.
      const alert = { budget: 100 + round, thresholds: [50, 100] };
      round += 1;
      expect((await as('owner').request('PUT', `${org}/billing/spend-alert`, alert)).status).toBe(
        200,
      );
    } while (cursor);
    expect(walked).toEqual(all.map((entry) => entry.id));
    expect((await as('owner').get(`${org}/audit-log?limit=0`)).status).toBe(400);
    expect((await as('owner').get(`${org}/audit-log?limit=101`)).status).toBe(400);
    expect((await as('owner').get(`${org}/audit-log?cursor=1;drop`)).status).toBe(400);
    const first = await page('?limit=3');
    expect(first.entries.map((entry) => entry.id)).toEqual(
      (await everything()).slice(0, 3).map((entry) => entry.id),
    );
    expect(first.next_cursor).not.toBeNull();
  });

  it('filters by action, actor (email in any case, or id) and dates', async () => {
    const all = await everything();
    const caps = await everything('&action=spend_alert.updated');
    expect(caps.length).toBeGreaterThan(1);
    expect(caps).toEqual(all.filter((entry) => entry.action === 'spend_alert.updated'));

    const byEmail = await everything('&actor=Admin@Example.com');
    expect(byEmail.map((entry) => entry.action)).toEqual(['access_token.revoked']);
    const byId = await everything(`&actor=${ownerId}`);
    expect(byId).toEqual(all.filter((entry) => entry.actor.id === ownerId));
    const engine = all.filter((entry) => entry.actor.type === 'billing_job');
    expect(engine.length).toBeGreaterThan(0);

    // Today's (the clock's day) entries: the changes of this file, none of the seeded past before it.
    const today = clock.now().toISOString().slice(0, 10);
    const since = await everything(`&since=${today}`);
    const start = Date.parse(`${today}T00:00:00Z`) / 1000;
    expect(since).toEqual(all.filter((entry) => entry.created_at >= start));
    const until = await everything(`&until=${today}`);
    expect(until).toEqual(all.filter((entry) => entry.created_at < start + 86_400));
    const before = await everything(`&until=${encodeURIComponent(`${today}T00:00:00Z`)}`);
    expect(before).toEqual(all.filter((entry) => entry.created_at < start));
    expect(since.length + before.length).toBe(all.length);
    expect(
      (await as('owner').get(`${org}/audit-log?since=2026-11-02&until=2026-11-01`)).status,
    ).toBe(400);
    expect((await as('owner').get(`${org}/audit-log?action=card.stolen`)).status).toBe(400);
  });

  it("the demo world records the owner removing acme-pro's failing Visa 9995; the charges it failed name it as removed", async () => {
    const [removal] = (await everything('&action=payment_method.removed')).filter(
      (entry) => entry.before?.['last4'] === '9995',
    );
    expect(removal).toMatchObject({
      actor: owner(),
      target: { type: 'payment_method' },
      before: { brand: 'visa', last4: '9995' },
    });
    const failures = (await everything('&action=invoice.payment_failed')).filter(
      (entry) => (entry.after?.['card'] as { last4?: string } | undefined)?.last4 === '9995',
    );
    expect(failures.length).toBeGreaterThan(0);
    for (const failure of failures)
      expect(failure.created_at).toBeLessThan(removal?.created_at ?? 0);
    const response = await as('owner').get<string>(
      `${org}/audit-log/export?action=invoice.payment_failed`,
    );
    expect(response.status).toBe(200);
    const rows = parse(response.body.replace(/^\uFEFF/, ''), { columns: true }) as {
      description: string;
    }[];
    const naming = rows.filter((row) => row.description.includes('Visa card ending 9995'));
    expect(naming).toHaveLength(failures.length);
    for (const row of naming) expect(row.description).toContain('Visa card ending 9995 (removed)');
    // A card still on file is named plainly.
    expect(rows.every((row) => !row.description.includes('ending 4242 (removed)'))).toBe(true);
  });

  it('exports the same entries as CSV, with the sentence, safe against formulas', async () => {
    const filtered = await everything('&action=spend_alert.updated');
    const response = await as('owner').get<string>(
      `${org}/audit-log/export?action=spend_alert.updated`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="acme-pro-audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = response.body.replace(/^\uFEFF/, '');
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'time,actor_type,actor_id,actor_email,action,description,target_type,target_id,before,after,ip,user_agent,id',
    );
    expect(lines).toHaveLength(filtered.length + 1);
    expect(lines[1]).toContain(describeAuditEntry(filtered[0] as AuditLogEntry));
    expect(lines[1]).toContain(filtered[0]?.id);

    // A webhook endpoint described as a formula is exported harmless.
    await as('owner').post(`${org}/webhooks`, {
      url: 'https://hooks.example.com/audit',
      events: ['invoice.paid'],
      description: '=HYPERLINK("http://evil.example")',
    });
    const webhooks = await as('owner').get<string>(
      `${org}/audit-log/export?action=webhook_endpoint.created`,
    );
    const rows = parse(webhooks.body, { bom: true, columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.description).toBe(
      'owner@example.com added the webhook endpoint https://hooks.example.com/audit',
    );
    expect(JSON.parse(rows[0]?.after ?? '')).toMatchObject({
      description: '=HYPERLINK("http://evil.example")',
    });
    // No cell starts as a formula would; the signing secret is nowhere.
    for (const cell of Object.values(rows[0] ?? {})) expect(cell).not.toMatch(/^[=+\-@]/);
    expect(webhooks.body).not.toMatch(/whsec_|"secret"/);
  });

  it('the database refuses to change or delete an entry, whoever asks', async () => {
    const [entry] = (await page('?limit=1')).entries;
    if (!entry) throw new Error('no entry');
    await expect(
      sql`UPDATE audit_log SET action = 'invoice.paid' WHERE id = ${entry.id}`.execute(db()),
    ).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log WHERE id = ${entry.id}`.execute(db())).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`TRUNCATE audit_log`.execute(db())).rejects.toThrow(/append-only/);
    const still = await db()
      .selectFrom('audit_log')
      .select('action')
      .where('id', '=', entry.id)
      .executeTakeFirstOrThrow();
    expect(still.action).toBe(entry.action);
  });

  it("an organization's deletion (the demo reset) takes its entries with it, and only then", async () => {
    const id = await organizationIdOf(db(), 'acme-pro');
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('audit_log')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('organization_id', '=', id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count()).toBeGreaterThan(0);
    await sql`DELETE FROM usage_events WHERE organization_id = ${id}`.execute(db());
    await db().deleteFrom('organizations').where('id', '=', id).execute();
    expect(await count()).toBe(0);
  });
});
