import {
  ACCESS_TOKEN_REQUESTS_PER_MINUTE,
  MAX_ACCESS_TOKENS,
  accessTokenCreatedSchema,
  accessTokenListSchema,
  upcomingInvoiceSchema,
} from '@meterline/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import {
  signInEveryone,
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

// Product decisions §13: organization access tokens for the billing read API.

const base = '/platform/organizations/acme-pro';

describe.each(testDatabases())('access tokens (%s)', (database) => {
  // Mid-cycle, on the demo world's clock, so an expiry can be reached by moving it.
  const clock = fixedClock(new Date('2026-11-20T12:00:00Z'));
  let server: TestServer;
  let as: (user: string) => TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database, clock });
    as = await signInEveryone(server);
  });
  afterAll(() => server.close());

  /** A request with the token alone: no cookie, no CSRF header. */
  const withToken = (token: string, path: string, method = 'GET', body?: unknown) =>
    fetch(server.url + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  async function create(name: string, expires: 7 | 30 | 90 | null = 30) {
    const answer = await as('owner').post(`${base}/tokens`, { name, expires_in_days: expires });
    expect(answer.status).toBe(201);
    return accessTokenCreatedSchema.parse(answer.body);
  }

  async function rows() {
    return server.database.db.selectFrom('access_tokens').selectAll().execute();
  }

  it('is answered once and stored as a hash; the list shows its prefix, creator, dates', async () => {
    const created = await create('Finance export', 30);
    expect(created.secret).toMatch(/^mlt_[A-Za-z0-9_-]{43}$/);
    expect(created.token.prefix).toBe(created.secret.slice(0, 12));
    expect(created.token.created_by).toBe('owner@example.com');
    expect(created.token.expires_at).toBe(created.token.created_at + 30 * 86_400);
    expect(created.token.last_used_at).toBeNull();
    const stored = (await rows()).find((row) => row.id === created.token.id);
    expect(stored?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(await rows())).not.toContain(created.secret);

    const list = await as('admin').get(`${base}/tokens`);
    expect(list.status).toBe(200);
    const tokens = accessTokenListSchema.parse(list.body).tokens;
    expect(tokens.map((token) => token.name)).toContain('Finance export');
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
  });

  it('reads the billing API of its organization, with no cookie and no CSRF, and records its use', async () => {
    const { secret, token } = await create('Reader', null);
    const upcoming = await withToken(secret, `${base}/billing/invoices/upcoming`);
    expect(upcoming.status).toBe(200);
    upcomingInvoiceSchema.parse(await upcoming.json());
    for (const path of [
      '/billing/subscription',
      '/billing/invoices',
      '/customer',
      '/tax-ids',
      '/payments',
      '/usage',
    ]) {
      expect((await withToken(secret, base + path)).status, path).toBe(200);
    }
    // The billing:read scope reads addresses, tax IDs and cards: an invoice's are in its details.
    const invoices = (await (await withToken(secret, `${base}/billing/invoices`)).json()) as {
      id: string;
    }[];
    const detail = (await (
      await withToken(secret, `${base}/billing/invoices/${invoices[0]?.id ?? ''}`)
    ).json()) as { billing_name: string | null; billing_address: unknown };
    expect(detail.billing_name).not.toBeNull();
    expect(detail.billing_address).not.toBeNull();
    const invoicesCsv = await withToken(secret, `${base}/billing/invoices/export`);
    expect(invoicesCsv.status).toBe(200);
    expect(invoicesCsv.headers.get('content-type')).toContain('text/csv');

    const listed = accessTokenListSchema
      .parse((await as('owner').get(`${base}/tokens`)).body)
      .tokens.find((entry) => entry.id === token.id);
    expect(listed?.last_used_at).toBe(Math.floor(clock.now().getTime() / 1000));
  });

  it('writes nothing: every other method is 403 and changes nothing', async () => {
    const { secret } = await create('Tries to write', 7);
    const before = await as('owner').get(`${base}/customer`);
    const refused = [
      await withToken(secret, `${base}/customer`, 'PUT', { address: { line1: 'x' } }),
      await withToken(secret, base, 'PATCH', { billing_email: 'evil@example.com' }),
      await withToken(secret, `${base}/billing/subscription`, 'PUT', { tier: 'tier_free' }),
      await withToken(secret, `${base}/tokens`, 'POST', { name: 'more', expires_in_days: 7 }),
      await withToken(secret, `${base}/payments/setup-intent`, 'POST', {}),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(((await answer.json()) as { message: string }).message).toContain('billing:read');
    }
    expect((await as('owner').get(`${base}/customer`)).body).toEqual(before.body);
  });

  it('reads neither the tokens, the webhooks nor the user’s own routes', async () => {
    const { secret } = await create('Nosy', 7);
    expect((await withToken(secret, `${base}/tokens`)).status).toBe(403);
    expect((await withToken(secret, `${base}/webhooks`)).status).toBe(403);
    expect((await withToken(secret, '/platform/profile')).status).toBe(403);
    expect((await withToken(secret, '/platform/organizations')).status).toBe(403);
  });

  it('is 404 on another organization, as for a stranger', async () => {
    const { secret } = await create('Acme Pro only', 7);
    const other = await withToken(
      secret,
      '/platform/organizations/acme-team/billing/invoices/upcoming',
    );
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ message: 'Organization not found' });
    expect(
      (await withToken(secret, '/platform/organizations/no-such-org/billing/invoices')).status,
    ).toBe(404);
  });

  it('stops working at once when revoked, and a wrong or malformed token is 401', async () => {
    const { secret, token } = await create('Revoked soon', 90);
    expect((await withToken(secret, `${base}/billing/subscription`)).status).toBe(200);
    expect((await as('owner').request('DELETE', `${base}/tokens/${token.id}`)).status).toBe(204);
    const after = await withToken(secret, `${base}/billing/subscription`);
    expect(after.status).toBe(401);
    expect(((await after.json()) as { message: string }).message).toContain('revoked');
    expect((await as('owner').request('DELETE', `${base}/tokens/${token.id}`)).status).toBe(404);
    const listed = accessTokenListSchema.parse((await as('owner').get(`${base}/tokens`)).body);
    expect(listed.tokens.map((entry) => entry.id)).not.toContain(token.id);

    const forged = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    expect((await withToken(forged, `${base}/billing/subscription`)).status).toBe(401);
    expect((await withToken('not-a-token', `${base}/billing/subscription`)).status).toBe(401);
    // A cookie does not rescue a bad token: the bearer speaks for itself.
    const withCookie = await as('owner').get(`${base}/billing/subscription`, {
      authorization: 'Bearer mlt_nope',
    });
    expect(withCookie.status).toBe(401);
  });

  it('stops working once its maker left the organization or may no longer manage its tokens', async () => {
    const made = await as('admin').post(`${base}/tokens`, {
      name: 'Admin made',
      expires_in_days: 30,
    });
    expect(made.status).toBe(201);
    const { secret } = accessTokenCreatedSchema.parse(made.body);
    const read = () => withToken(secret, `${base}/billing/subscription`);
    expect((await read()).status).toBe(200);
    const db = server.database.db;
    const { admin, org } = {
      admin: (
        await db
          .selectFrom('users')
          .select('id')
          .where('email', '=', 'admin@example.com')
          .executeTakeFirstOrThrow()
      ).id,
      org: await server.organizationId('acme-pro'),
    };
    const membership = db
      .updateTable('memberships')
      .where('user_id', '=', admin)
      .where('organization_id', '=', org);
    try {
      // Made read-only: a role that cannot manage tokens.
      await membership.set({ role: 'read_only' }).execute();
      expect((await read()).status).toBe(401);
      await membership.set({ role: 'administrator' }).execute();
      expect((await read()).status).toBe(200);
      // Left the organization.
      await db
        .deleteFrom('memberships')
        .where('user_id', '=', admin)
        .where('organization_id', '=', org)
        .execute();
      expect((await read()).status).toBe(401);
    } finally {
      await db
        .insertInto('memberships')
        .values({ user_id: admin, organization_id: org, role: 'administrator' })
        .onConflict((conflict) =>
          conflict.columns(['organization_id', 'user_id']).doUpdateSet({ role: 'administrator' }),
        )
        .execute();
    }
    expect((await read()).status).toBe(200);
  });

  it('expires at its time', async () => {
    const { secret } = await create('A week', 7);
    expect((await withToken(secret, `${base}/billing/subscription`)).status).toBe(200);
    clock.advance(7 * 86_400);
    try {
      expect((await withToken(secret, `${base}/billing/subscription`)).status).toBe(401);
    } finally {
      clock.advance(-7 * 86_400);
    }
  });

  it('is managed by owners and administrators only', async () => {
    const { token } = await create('Guarded', 7);
    for (const user of ['developer', 'readonly']) {
      expect((await as(user).get(`${base}/tokens`)).status).toBe(403);
      expect(
        (await as(user).post(`${base}/tokens`, { name: 'x', expires_in_days: 7 })).status,
      ).toBe(403);
      expect((await as(user).request('DELETE', `${base}/tokens/${token.id}`)).status).toBe(403);
    }
    expect((await as('outsider').get(`${base}/tokens`)).status).toBe(404);
    expect((await server.client().get(`${base}/tokens`)).status).toBe(401);
    // Another organization's token id is not found here.
    const team = await as('owner').post('/platform/organizations/acme-team/tokens', {
      name: 'Team',
      expires_in_days: 7,
    });
    const teamToken = accessTokenCreatedSchema.parse(team.body);
    expect(
      (await as('owner').request('DELETE', `${base}/tokens/${teamToken.token.id}`)).status,
    ).toBe(404);
  });

  it('refuses bad input naming the field, and writes nothing', async () => {
    const count = (await rows()).length;
    const cases: [unknown, string][] = [
      [{ name: '', expires_in_days: 7 }, 'Name is required'],
      [{ name: 'x', expires_in_days: 14 }, 'expires_in_days must be 7, 30, 90 or null (never)'],
      [{ name: 'x', expires_in_days: 7, scope: 'billing:write' }, 'scope must be billing:read'],
      [{ name: 'x'.repeat(65), expires_in_days: 7 }, 'Name must be at most 64 characters'],
    ];
    for (const [body, message] of cases) {
      const answer = await as('owner').post(`${base}/tokens`, body);
      expect(answer.status).toBe(400);
      expect((answer.body as { message: string }).message).toContain(message);
    }
    expect((await as('owner').request('DELETE', `${base}/tokens/not-an-id`)).status).toBe(400);
    expect((await rows()).length).toBe(count);
  });

  it(`holds at most ${MAX_ACCESS_TOKENS} live tokens, also when created all at once`, async () => {
    const slug = '/platform/organizations/acme-team';
    const answers = await Promise.all(
      Array.from({ length: MAX_ACCESS_TOKENS + 5 }, (_, index) =>
        as('owner').post(`${slug}/tokens`, { name: `Burst ${index}`, expires_in_days: 7 }),
      ),
    );
    const live = await server.database.db
      .selectFrom('access_tokens')
      .innerJoin('organizations', 'organizations.id', 'access_tokens.organization_id')
      .select(sql<string>`count(*)`.as('n'))
      .where('organizations.slug', '=', 'acme-team')
      .where('access_tokens.revoked_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(live.n)).toBe(MAX_ACCESS_TOKENS);
    expect(answers.filter((answer) => answer.status === 201).length).toBe(MAX_ACCESS_TOKENS - 1);
    expect(answers.filter((answer) => answer.status === 400).length).toBe(6);
  });

  it(`is rate limited to ${ACCESS_TOKEN_REQUESTS_PER_MINUTE} requests a minute, counted exactly under concurrency`, async () => {
    const { secret } = await create('Busy', 7);
    const answers = await Promise.all(
      Array.from({ length: ACCESS_TOKEN_REQUESTS_PER_MINUTE + 10 }, () =>
        withToken(secret, `${base}/billing/subscription`),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200).length).toBe(
      ACCESS_TOKEN_REQUESTS_PER_MINUTE,
    );
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited.length).toBe(10);
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another token has its own count; the next minute starts afresh.
    const { secret: other } = await create('Quiet', 7);
    expect((await withToken(other, `${base}/billing/subscription`)).status).toBe(200);
    clock.advance(61);
    expect((await withToken(secret, `${base}/billing/subscription`)).status).toBe(200);
  });
});
