import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import {
  signInEveryone,
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const ORG = '/platform/organizations/acme-pro';
/** The billing page's reads. */
const BILLING_READS = [
  ORG,
  `${ORG}/billing/subscription`,
  `${ORG}/billing/invoices/upcoming`,
  `${ORG}/billing/invoices?offset=0&limit=5`,
];

// A read after a write sees it, whatever the write and however often the reads ran before: nothing keeps a
// finished answer, and the cycle rows kept per billing version are read again once the version moves. The
// clock stands still, so every read below falls in the same second as the one it follows.
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
    const organizationId = () => server.organizationId('acme-pro');
    async function read<T>(path: string, user = 'owner'): Promise<T> {
      const response = await as(user).get(path);
      expect(response.status, path).toBe(200);
      return response.body as T;
    }
    /** Reads each twice, as a page that is open and refreshes does. */
    async function warm(): Promise<void> {
      for (const path of BILLING_READS) {
        await read(path);
        await read(path);
      }
    }

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

    it('another caller never gets an answer made for someone else', async () => {
      await warm();
      // Not a member: the organization does not exist for them.
      for (const path of BILLING_READS) expect((await as('outsider').get(path)).status).toBe(404);
      // A member with another role reads for itself.
      expect((await as('readonly').get(ORG)).status).toBe(200);
      // A member removed learns nothing more after the read it made while it belonged.
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
      for (const path of BILLING_READS) expect((await as('readonly').get(path)).status).toBe(404);
    });
  },
);
