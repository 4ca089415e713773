import {
  entitlementsSchema,
  freeLimitMembersSchema,
  type FreeLimitMember,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membersAtFreeProjectLimit } from '../src/services/restrictions/members-at-free-project-limit.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
  organizationIdOf,
} from './support/server.ts';

const limitPath = (slug: string) =>
  `/platform/organizations/${slug}/members/reached-free-project-limit`;

describe.each(testDatabases())('free project limit and entitlements (%s)', (database) => {
  let server: TestServer;
  let owner: TestClient;
  beforeAll(async () => {
    server = await startTestServer({ database });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const orgId = (slug: string) => organizationIdOf(db(), slug);
  const reached = async (slug: string): Promise<FreeLimitMember[]> => {
    const response = await owner.get(limitPath(slug));
    expect(response.status).toBe(200);
    return freeLimitMembersSchema.parse(response.body);
  };

  it("lists crowded-co's owner and administrator who have reached the default limit", async () => {
    expect(await reached('crowded-co')).toEqual([
      { username: 'Maya Crowder', primary_email: 'maya@example.com', free_project_limit: 2 },
      { username: 'Theo Crowder', primary_email: 'theo@example.com', free_project_limit: 2 },
    ]);
  });

  it('lists nobody where the demo users, with a limit of 10, run the organization', async () => {
    const limits = await db()
      .selectFrom('users')
      .select(['email', 'free_project_limit'])
      .where('email', 'in', [
        'owner@example.com',
        'admin@example.com',
        'developer@example.com',
        'readonly@example.com',
        'outsider@example.com',
      ])
      .execute();
    expect(limits.map((user) => user.free_project_limit)).toEqual([10, 10, 10, 10, 10]);
    for (const slug of ['acme-pro', 'acme-free', 'limits-co', 'idle-co']) {
      expect(await reached(slug)).toEqual([]);
    }
  });

  it('answers the same list from the service the downgrade refusal calls', async () => {
    const id = await orgId('crowded-co');
    expect(await membersAtFreeProjectLimit(db(), id)).toEqual(await reached('crowded-co'));
    expect(await membersAtFreeProjectLimit(db(), await orgId('acme-pro'))).toEqual([]);
  });

  it('is readable with billing read on subscriptions, by members only', async () => {
    const readonly = await server.signIn('readonly@example.com');
    expect((await readonly.get(limitPath('crowded-co'))).status).toBe(200);
    const outsider = await server.signIn('outsider@example.com');
    expect((await outsider.get(limitPath('crowded-co'))).status).toBe(404);
    expect((await server.client().get(limitPath('crowded-co'))).status).toBe(401);
    expect((await owner.get(limitPath('no-such-org'))).status).toBe(404);
  });

  it('counts running free projects of organizations the member owns or administers', async () => {
    const maya = await orgId('maya-personal');
    const setStatus = (ref: string, status: 'INACTIVE' | 'COMING_UP' | 'ACTIVE_HEALTHY') =>
      db().updateTable('projects').set({ status }).where('ref', '=', ref).execute();
    // A paused project frees a place; one coming up takes it again.
    await setStatus('mayapersonal1', 'INACTIVE');
    expect((await reached('crowded-co')).map((m) => m.primary_email)).toEqual(['theo@example.com']);
    await setStatus('mayapersonal1', 'COMING_UP');
    expect(await reached('crowded-co')).toHaveLength(2);
    // Projects of an organization on a paid plan do not count.
    await db()
      .updateTable('subscriptions')
      .set({ plan_id: 'pro' })
      .where('organization_id', '=', maya)
      .execute();
    expect((await reached('crowded-co')).map((m) => m.primary_email)).toEqual(['theo@example.com']);
    await db()
      .updateTable('subscriptions')
      .set({ plan_id: 'free' })
      .where('organization_id', '=', maya)
      .execute();
    // A developer of crowded-co neither counts nor blocks, and neither do free projects of an
    // organization where the member is a developer.
    const theo = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'theo@example.com')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('memberships')
      .set({ role: 'developer' })
      .where('user_id', '=', theo.id)
      .where('organization_id', '=', await orgId('crowded-co'))
      .execute();
    expect((await reached('crowded-co')).map((m) => m.primary_email)).toEqual(['maya@example.com']);
    await db()
      .updateTable('memberships')
      .set({ role: 'administrator' })
      .where('user_id', '=', theo.id)
      .where('organization_id', '=', await orgId('crowded-co'))
      .execute();
    await db()
      .updateTable('memberships')
      .set({ role: 'developer' })
      .where('user_id', '=', theo.id)
      .where('organization_id', '=', await orgId('theo-personal'))
      .execute();
    expect((await reached('crowded-co')).map((m) => m.primary_email)).toEqual(['maya@example.com']);
  });

  it("answers the entitlements of the organization's plan", async () => {
    const get = async (slug: string) => {
      const response = await owner.get(`/platform/organizations/${slug}/entitlements`);
      expect(response.status).toBe(200);
      return entitlementsSchema.parse(response.body);
    };
    const valueOf = (answer: Awaited<ReturnType<typeof get>>, feature: string) =>
      answer.entitlements.find((entry) => entry.feature === feature)?.value;
    const free = await get('acme-free');
    expect(free.plan.id).toBe('free');
    expect(valueOf(free, 'active_free_projects')).toBe(2);
    expect(valueOf(free, 'support_level')).toBe('community');
    const team = await get('acme-team');
    expect(valueOf(team, 'soc2')).toBe(true);
    expect(valueOf(team, 'log_retention_days')).toBe(28);
    const pro = await get('acme-pro');
    expect(valueOf(pro, 'backup_retention_days')).toBe(7);
    expect(valueOf(pro, 'sso')).toBe(false);
    const readonly = await server.signIn('readonly@example.com');
    expect((await readonly.get('/platform/organizations/acme-pro/entitlements')).status).toBe(200);
    const outsider = await server.signIn('outsider@example.com');
    expect((await outsider.get('/platform/organizations/acme-pro/entitlements')).status).toBe(404);
  });
});
