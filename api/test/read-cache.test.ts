import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { ORGANIZATION_CHANGE_TABLES } from '../src/db/migrations/0029-organization-changed-notice.ts';
import {
  signInEveryone,
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const ORG = '/platform/organizations/acme-pro';
const METERING_KEY = 'test-metering-key-0123456789';
/** The billing page's reads, whose answers the embedded database's server keeps between writes. */
const KEPT_READS = [
  ORG,
  `${ORG}/billing/subscription`,
  `${ORG}/billing/invoices/upcoming`,
  `${ORG}/billing/invoices?offset=0&limit=5`,
];

/**
 * Tables a kept read may read without being in migration 0029's list, and why that is safe: a write to
 * them always comes with a write of the subscription of the same organization, in the same statement or
 * transaction, which is announced.
 */
const COVERED_BY_THE_SUBSCRIPTION: Record<string, string> = {
  usage_cycle: 'written only by the ingestion statement that moves subscriptions.billing_version',
  closed_cycles: 'written only by a cycle close, which moves the subscription to its next cycle',
  usage_cycle_billed:
    'written only by a cycle close, which moves the subscription to its next cycle',
};

// Issue 14, item 6: a read after a write sees it, whatever the write and however warm the kept answers.
// The clock stands still, so every read below falls in the same second as the one it follows: on the
// embedded database each would be served from what was kept, if the write were not announced.
describe.each(testDatabases())(
  'the billing page reads follow every write at once (%s)',
  (database) => {
    const clock = fixedClock(new Date());
    let server: TestServer;
    let as: (user: string) => TestClient;
    beforeAll(async () => {
      server = await startTestServer({ database, clock });
      as = await signInEveryone(server);
    });
    afterAll(() => server.close());

    const db = () => server.database.db;
    const organizationId = async () =>
      (
        await db()
          .selectFrom('organizations')
          .select('id')
          .where('slug', '=', 'acme-pro')
          .executeTakeFirstOrThrow()
      ).id;
    async function read<T>(path: string, user = 'owner'): Promise<T> {
      const response = await as(user).get(path);
      expect(response.status, path).toBe(200);
      return response.body as T;
    }
    /** Reads twice, so that on the embedded database the second answer is a kept one. */
    async function warm(): Promise<void> {
      for (const path of KEPT_READS) {
        await read(path);
        await read(path);
      }
    }

    it('keeps the answers on the embedded database only', async () => {
      await warm();
      if (database === 'pglite') expect(server.app.readCache?.size).toBeGreaterThanOrEqual(4);
      else expect(server.app.readCache).toBeNull();
      // The announcements are the embedded database's: a PostgreSQL server's connections turn them off.
      const { rows } = await sql<{
        setting: string;
      }>`SELECT current_setting('meterline.notify_changes', true) AS setting`.execute(db());
      expect(rows[0]?.setting).toBe(database === 'pglite' ? 'on' : 'off');
      // Parameters a read does not declare are not part of its answer, nor of what is kept.
      const kept = server.app.readCache?.size;
      for (let n = 0; n < 5; n++) await read(`${ORG}?unknown=${n}`);
      await read(`${ORG}/billing/invoices?limit=5&offset=0&unknown=1`);
      expect(server.app.readCache?.size).toBe(kept);
    });

    it('a change through the API shows in the next read', async () => {
      await warm();
      const renamed = await as('owner').request('PATCH', ORG, { name: 'Acme Renamed' });
      expect(renamed.status).toBe(200);
      expect((await read<{ name: string }>(ORG)).name).toBe('Acme Renamed');
    });

    it('a write of each kind, in a transaction or alone, shows in the next read', async () => {
      const org = await organizationId();
      type Subscription = {
        customer_balance: number;
        project_addons: { ref: string; name: string; addons: { type: string }[] }[];
      };
      type Upcoming = {
        customer_balance: number;
        lines: { description: string; amount: number }[];
      };
      type Invoice = { id: string; payment_attempted: boolean };

      await warm();
      await db()
        .transaction()
        .execute((trx) =>
          trx
            .updateTable('subscriptions')
            .set({ customer_balance_cents: -12_345 })
            .where('organization_id', '=', org)
            .execute(),
        );
      expect((await read<Subscription>(`${ORG}/billing/subscription`)).customer_balance).toBe(
        -12_345,
      );
      expect((await read<Upcoming>(`${ORG}/billing/invoices/upcoming`)).customer_balance).toBe(
        -12_345,
      );

      await warm();
      await db()
        .updateTable('projects')
        .set({ name: 'Renamed Project' })
        .where('organization_id', '=', org)
        .where('ref', '=', 'acmepro1')
        .execute();
      const renamed = (await read<Subscription>(`${ORG}/billing/subscription`)).project_addons;
      expect(renamed.find((project) => project.ref === 'acmepro1')?.name).toBe('Renamed Project');

      await warm();
      const before = await read<Subscription>(`${ORG}/billing/subscription`);
      const addonsBefore = before.project_addons.flatMap((project) => project.addons).length;
      await db()
        .updateTable('project_addons')
        .set({ ended_at: new Date(clock.now().getTime() - 1000) })
        .where('organization_id', '=', org)
        .where('ended_at', 'is', null)
        .execute();
      const after = await read<Subscription>(`${ORG}/billing/subscription`);
      expect(after.project_addons.flatMap((project) => project.addons).length).toBeLessThan(
        addonsBefore,
      );

      await warm();
      const linesBefore = (await read<Upcoming>(`${ORG}/billing/invoices/upcoming`)).lines;
      // As the product writes compute (a plan change): with the billing version moved.
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx
            .updateTable('project_compute_resources')
            .set({ compute_size: 'xlarge' })
            .where('organization_id', '=', org)
            .execute();
          await trx
            .updateTable('subscriptions')
            .set((eb) => ({ billing_version: eb('billing_version', '+', 1) }))
            .where('organization_id', '=', org)
            .execute();
        });
      const linesAfter = (await read<Upcoming>(`${ORG}/billing/invoices/upcoming`)).lines;
      expect(linesAfter).not.toEqual(linesBefore);

      await warm();
      const [newest] = await read<Invoice[]>(`${ORG}/billing/invoices?offset=0&limit=5`);
      if (!newest) throw new Error('acme-pro has invoices');
      await db()
        .updateTable('invoices')
        .set({ payment_attempted: !newest.payment_attempted })
        .where('id', '=', newest.id)
        .execute();
      const [changed] = await read<Invoice[]>(`${ORG}/billing/invoices?offset=0&limit=5`);
      expect(changed?.payment_attempted).toBe(!newest.payment_attempted);
    });

    it('another caller never gets an answer kept for someone else', async () => {
      await warm();
      // Not a member: the organization does not exist for them, kept answers or not.
      for (const path of KEPT_READS) expect((await as('outsider').get(path)).status).toBe(404);
      // A member with another role reads for itself; the same data, asked and kept on its own.
      expect((await as('readonly').get(ORG)).status).toBe(200);
      // A member removed learns nothing more from what was kept while it belonged.
      const readonly = await db()
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'readonly@example.com')
        .executeTakeFirstOrThrow();
      const org = await organizationId();
      await db()
        .deleteFrom('memberships')
        .where('user_id', '=', readonly.id)
        .where('organization_id', '=', org)
        .execute();
      for (const path of KEPT_READS) expect((await as('readonly').get(path)).status).toBe(404);
    });
  },
);

describe('what the kept reads are made of (embedded database)', () => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  let owner: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { METERING_API_KEY: METERING_KEY } });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const db = () => server.database.db;

  it('every write to a table in the list is announced, in a transaction or alone', async () => {
    const cache = server.app.readCache;
    if (!cache) throw new Error('the embedded database keeps answers');
    const { id } = await db()
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'acme-pro')
      .executeTakeFirstOrThrow();
    // acme-pro has no spend-cap toggle yet: one, so that every table has a row of it to write.
    await sql`INSERT INTO spend_cap_toggles (organization_id, cycle_start, at, cap_on, reading, billed)
      VALUES (${id}::uuid, now(), now(), true, '{}', '{}')`.execute(db());
    for (const table of ORGANIZATION_CHANGE_TABLES) {
      const column = table === 'organizations' ? 'id' : 'organization_id';
      const before = cache.versionOf(id);
      const written =
        await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${sql.ref(column)} WHERE ${sql.ref(column)} = ${id}::uuid`.execute(
          db(),
        );
      expect(Number(written.numAffectedRows), table).toBeGreaterThan(0);
      const alone = cache.versionOf(id);
      expect(alone, table).not.toBe(before);
      await db()
        .transaction()
        .execute((trx) =>
          sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${sql.ref(column)} WHERE ${sql.ref(column)} = ${id}::uuid`.execute(
            trx,
          ),
        );
      expect(cache.versionOf(id), table).not.toBe(alone);
    }
  });

  it('a kept read reads only tables whose writes are announced', async () => {
    // Statistics of the embedded database count the scans of each table; the kept answers are forgotten
    // first (a write), so each read below is computed again, after the access guard has its answer.
    await sql`SET stats_fetch_consistency = none`.execute(db());
    const scans = async () => {
      await sql`SELECT pg_stat_force_next_flush()`.execute(db());
      const { rows } = await sql<{ relname: string; scans: number }>`
        SELECT relname, (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int AS scans
        FROM pg_stat_user_tables`.execute(db());
      return new Map(rows.map((row) => [row.relname, row.scans]));
    };
    const allowed = new Set<string>([
      ...ORGANIZATION_CHANGE_TABLES,
      ...Object.keys(COVERED_BY_THE_SUBSCRIPTION),
    ]);
    // Usage reported late for the cycle before: the upcoming invoice reads the closed cycle's too.
    const { id } = await db()
      .selectFrom('organizations')
      .select('id')
      .where('slug', '=', 'acme-pro')
      .executeTakeFirstOrThrow();
    const { current_period_start: cycleStart } = await db()
      .selectFrom('subscriptions')
      .select('current_period_start')
      .where('organization_id', '=', id)
      .executeTakeFirstOrThrow();
    const late = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${METERING_KEY}` },
      body: JSON.stringify({
        events: [
          {
            id: 'late-for-the-kept-reads',
            project_ref: 'acmepro1',
            metric: 'EGRESS',
            usage: 1_000_000_000,
            timestamp: Math.floor(cycleStart.getTime() / 1000) - 86_400,
          },
        ],
      }),
    });
    expect(late.status).toBe(200);
    const forget = () =>
      db()
        .updateTable('subscriptions')
        .set((eb) => ({ billing_version: eb('billing_version', '+', 1) }))
        .where('organization_id', '=', id)
        .execute();
    for (const path of KEPT_READS) {
      expect((await owner.get(path)).status).toBe(200);
      // The billing version moves too, so the cycle's rows are read again, not taken from their cache.
      await forget();
      const before = await scans();
      expect((await owner.get(path)).status).toBe(200);
      const after = await scans();
      const read = [...after].filter(([table, count]) => count !== before.get(table));
      expect(read.length, path).toBeGreaterThan(0);
      for (const [table] of read) expect(allowed, `${path} reads ${table}`).toContain(table);
    }
  });
});
