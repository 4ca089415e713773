import { randomBytes } from 'node:crypto';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { addMonthsClamped } from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { migrateToLatest, openDatabase, type Db } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { closeCycle } from '../src/services/invoices/close-cycle.ts';
import { invoicePrefix } from '../src/lib/ids.ts';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';

const DAY = 86_400_000;
const NUMBER = /^ML-([0-9A-Z]+)-(\d{4})$/;

/** A Pro organization with no projects, anchored at `start` (its first cycle is a calendar month). */
async function addProOrganization(db: Db, id: string, slug: string, start: Date): Promise<void> {
  await db
    .insertInto('organizations')
    .values({ id, slug, name: slug, managed_by: 'platform' })
    .execute();
  await db
    .insertInto('subscriptions')
    .values({
      organization_id: id,
      plan_id: 'pro',
      usage_billing_enabled: false,
      billing_via_partner: false,
      billing_partner: null,
      payment_method_type: 'card',
      billing_cycle_anchor: start,
      current_period_start: start,
      current_period_end: new Date(addMonthsClamped(start.getTime() / 1000, 1) * 1000),
    })
    .execute();
}

async function numbersOf(db: Db, organizationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('invoices')
    .select('number')
    .where('organization_id', '=', organizationId)
    .orderBy('sequence')
    .execute();
  return rows.map((row) => row.number);
}

describe('invoice prefixes', () => {
  it('are seven characters, distinct for distinct allocations', () => {
    const seen = new Set<string>();
    for (let allocation = 1; allocation <= 20_000; allocation++) {
      const prefix = invoicePrefix(allocation);
      expect(prefix).toMatch(/^[0-9A-Z]{7}$/);
      seen.add(prefix);
    }
    expect(seen.size).toBe(20_000);
    expect(invoicePrefix(36 ** 7 - 1)).toMatch(/^[0-9A-Z]{7}$/);
    expect(() => invoicePrefix(0)).toThrow(RangeError);
    expect(() => invoicePrefix(36 ** 7)).toThrow(RangeError);
  });
});

describe.each(testDatabases())('invoice numbers (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, clock });
  });
  afterAll(() => server.close());
  const db = () => server.database.db;

  it('differ for two organizations whose ids share their first eight hex digits', async () => {
    const start = new Date(Date.UTC(2026, 0, 1));
    const first = 'abcdef12-0000-4000-8000-000000000001';
    const second = 'abcdef12-0000-4000-8000-000000000002';
    await addProOrganization(db(), first, 'twin-one', start);
    await addProOrganization(db(), second, 'twin-two', start);
    for (const cycle of [1, 2]) {
      const at = new Date(addMonthsClamped(start.getTime() / 1000, cycle) * 1000 + DAY);
      expect((await closeCycle(db(), first, at, 60)).status).toBe('closed');
      expect((await closeCycle(db(), second, at, 60)).status).toBe('closed');
    }
    const one = await numbersOf(db(), first);
    const two = await numbersOf(db(), second);
    expect(one).toHaveLength(2);
    expect(two).toHaveLength(2);
    expect(new Set([...one, ...two]).size).toBe(4);
    // Each organization keeps one prefix and counts its own invoices.
    const prefixOf = (numbers: string[]) => new Set(numbers.map((n) => NUMBER.exec(n)?.[1]));
    expect(prefixOf(one).size).toBe(1);
    expect(prefixOf(two).size).toBe(1);
    expect(one.map((n) => NUMBER.exec(n)?.[2])).toEqual(['0001', '0002']);
    expect(two.map((n) => NUMBER.exec(n)?.[2])).toEqual(['0001', '0002']);
  });

  it('of the seeded demo world: every organization numbers 1…n under a prefix of its own', async () => {
    const rows = await db()
      .selectFrom('invoices')
      .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
      .select(['organizations.slug', 'organizations.invoice_prefix', 'invoices.number'])
      .orderBy('organizations.slug')
      .orderBy('invoices.sequence')
      .execute();
    const bySlug = new Map<string, string[]>();
    for (const row of rows) {
      expect(row.invoice_prefix).toMatch(/^[0-9A-Z]{7}$/);
      expect(NUMBER.exec(row.number)?.[1]).toBe(row.invoice_prefix);
      bySlug.set(row.slug, [...(bySlug.get(row.slug) ?? []), row.number]);
    }
    // demo-world.md: acme-pro has 13 past invoices, acme-team 3.
    expect(bySlug.get('acme-pro')).toHaveLength(13);
    expect(bySlug.get('acme-team')).toHaveLength(3);
    for (const numbers of bySlug.values()) {
      expect(numbers.map((n) => Number(NUMBER.exec(n)?.[2]))).toEqual(
        numbers.map((_, index) => index + 1),
      );
    }
    const prefixes = new Set(rows.map((row) => row.invoice_prefix));
    expect(prefixes.size).toBe(bySlug.size);
  });
});

describe.each(testDatabases())('invoice numbers across the upgrade (%s)', (database) => {
  const schema = database === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  let handle: Awaited<ReturnType<typeof openDatabase>>;
  beforeAll(async () => {
    handle = await openDatabase({
      databaseUrl: database === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
      schema,
    });
  });
  afterAll(async () => {
    await handle.close();
    if (schema) {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('keeps the numbers issued before it, and each organization continues its series', async () => {
    const db = handle.db;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    // The store as it stood before invoice prefixes.
    const before = await migrator.migrateTo('0007-usage-events-log');
    expect(before.error).toBeUndefined();
    const start = new Date(Date.UTC(2026, 0, 1));
    const invoiced = '3ba502f4-1111-4000-8000-000000000001';
    const fresh = '3ba502f4-2222-4000-8000-000000000002';
    await addProOrganization(db, invoiced, 'invoiced', start);
    await addProOrganization(db, fresh, 'fresh', start);
    const legacy = ['ML-3BA502F4-0001', 'ML-3BA502F4-0002'];
    for (const [index, number] of legacy.entries()) {
      await sql`
        INSERT INTO invoices (id, organization_id, number, sequence, status, period_start,
          period_end, subtotal_cents, amount_due_cents, plan_id, finalized_at)
        VALUES (${`in_legacy_${index}`}, ${invoiced}, ${number}, ${index + 1}, 'paid',
          ${new Date(Date.UTC(2025, 10 + index, 1))}, ${new Date(Date.UTC(2025, 11 + index, 1))},
          2500, 2500, 'pro', now())
      `.execute(db);
    }

    await migrateToLatest(db, schema);
    expect(await numbersOf(db, invoiced)).toEqual(legacy);
    const at = new Date(start.getTime() + 32 * DAY);
    expect((await closeCycle(db, invoiced, at, 60)).status).toBe('closed');
    expect((await closeCycle(db, fresh, at, 60)).status).toBe('closed');
    expect(await numbersOf(db, invoiced)).toEqual([...legacy, 'ML-3BA502F4-0003']);
    const [freshNumber] = await numbersOf(db, fresh);
    expect(freshNumber).toMatch(/^ML-[0-9A-Z]{7}-0001$/);
  });
});
