import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.ts';
import { seedDemoWorld } from '../src/seed/demo-world.ts';
import {
  signInEveryone,
  startTestServer,
  testDatabases,
  type TestServer,
  organizationIdOf,
} from './support/server.ts';
import type { TestClient } from './support/server.ts';

// The access guard may keep its answers for a few seconds (the embedded database); none may outlive a change
// of the membership it read. Every step below follows the change at once, well within those seconds.
describe.each(testDatabases())('access follows membership changes at once (%s)', (database) => {
  let server: TestServer;
  let as: (user: string) => TestClient;
  beforeAll(async () => {
    server = await startTestServer({ database });
    as = await signInEveryone(server);
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const userId = async (email: string) =>
    (
      await db()
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirstOrThrow()
    ).id;
  const organizationId = (slug: string) => organizationIdOf(db(), slug);
  const renameBillingEmail = (user: string, email: string) =>
    as(user).request('PATCH', '/platform/organizations/acme-team', { billing_email: email });

  it('a role raised or lowered counts from the next request', async () => {
    const developer = await userId('developer@example.com');
    const team = await organizationId('acme-team');
    expect((await renameBillingEmail('developer', 'dev@acme.example.com')).status).toBe(403);

    await db()
      .updateTable('memberships')
      .set({ role: 'administrator' })
      .where('user_id', '=', developer)
      .where('organization_id', '=', team)
      .execute();
    expect((await renameBillingEmail('developer', 'dev@acme.example.com')).status).toBe(200);

    await db()
      .updateTable('memberships')
      .set({ role: 'read_only' })
      .where('user_id', '=', developer)
      .where('organization_id', '=', team)
      .execute();
    expect((await renameBillingEmail('developer', 'dev2@acme.example.com')).status).toBe(403);
  });

  it('a membership removed hides the organization from the next request, in a transaction too', async () => {
    const admin = await userId('admin@example.com');
    const team = await organizationId('acme-team');
    expect((await as('admin').get('/platform/organizations/acme-team')).status).toBe(200);
    await db()
      .transaction()
      .execute((trx) =>
        trx
          .deleteFrom('memberships')
          .where('user_id', '=', admin)
          .where('organization_id', '=', team)
          .execute(),
      );
    expect((await as('admin').get('/platform/organizations/acme-team')).status).toBe(404);

    await db()
      .insertInto('memberships')
      .values({ organization_id: team, user_id: admin, role: 'owner' })
      .execute();
    expect((await as('admin').get('/platform/organizations/acme-team')).status).toBe(200);
  });

  it('a reset of the demo world gives back the demo roles and the new organizations', async () => {
    const before = await organizationId('acme-pro');
    expect((await as('owner').get('/platform/organizations/acme-pro/customer')).status).toBe(200);
    expect((await renameBillingEmail('admin', 'kept@acme.example.com')).status).toBe(200);

    await seedDemoWorld(db(), systemClock);
    expect(await organizationId('acme-pro')).not.toBe(before);

    const customer = await as('owner').get('/platform/organizations/acme-pro/customer');
    expect(customer.status).toBe(200);
    expect((await as('readonly').get('/platform/organizations/acme-pro/customer')).status).toBe(
      403,
    );
    const team = await as('admin').get<{ billing_email: string }>(
      '/platform/organizations/acme-team',
    );
    expect(team.status).toBe(200);
    expect(team.body.billing_email).toBe('billing@acme-team.example.com');
    // The developer made an administrator and then read-only above is a developer again.
    expect((await renameBillingEmail('developer', 'dev3@acme.example.com')).status).toBe(403);
    expect((await as('developer').get('/platform/organizations/acme-pro/customer')).status).toBe(
      200,
    );
  });
});
