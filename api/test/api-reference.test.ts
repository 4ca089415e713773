import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';

const KEY = 'test-metering-key-0123456789';

interface Document {
  info: { title: string; description: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, Record<string, string>>;
  };
}

function references(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) references(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.push(item);
      else references(item, found);
    }
  }
  return found;
}

/** The cookie jar of `curl -c jar -b jar`: what the server set, sent back. */
class Jar {
  private readonly cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
  keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
}

describe.each(testDatabases())('the API reference (%s)', (database) => {
  let server: TestServer;
  let document: Document;

  beforeAll(async () => {
    server = await startTestServer({ database, env: { METERING_API_KEY: KEY } });
    const response = await fetch(`${server.url}/platform/openapi.json`);
    expect(response.status).toBe(200);
    document = (await response.json()) as Document;
  });
  afterAll(() => server?.close());

  it('names its schemas after the domain, once each, and every reference finds its schema', () => {
    const names = Object.keys(document.components.schemas);
    expect(names.filter((name) => /(Input|Output)$/.test(name))).toEqual([]);
    expect(names).toEqual(
      expect.arrayContaining([
        'Error',
        'Profile',
        'SignIn',
        'CsrfToken',
        'Subscription',
        'UpcomingInvoice',
        'Invoice',
        'InvoiceDetail',
        'PaymentMethods',
        'CustomerAddress',
        'CustomerUpdate',
        'TopUpRequest',
        'RestrictionHistory',
      ]),
    );
    const dangling = references(document)
      .map((ref) => ref.replace('#/components/schemas/', ''))
      .filter((name) => !(name in document.components.schemas));
    expect(dangling).toEqual([]);
  });

  it('groups every operation under one declared, described resource tag', () => {
    const declared = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
    const untagged: string[] = [];
    const used = new Set<string>();
    for (const [url, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const tags = operation.tags ?? [];
        if (tags.length !== 1 || !declared.has(tags[0] ?? '')) {
          untagged.push(`${method.toUpperCase()} ${url}: ${tags.join(', ') || 'no tag'}`);
        }
        tags.forEach((tag) => used.add(tag));
      }
    }
    expect(untagged).toEqual([]);
    for (const [name, description] of declared) {
      expect(description, name).toMatch(/\w/);
      expect(used.has(name), `tag ${name} is used`).toBe(true);
    }
  });

  it('documents the session, CSRF and operator-key schemes, with a worked example', () => {
    const { securitySchemes } = document.components;
    expect(securitySchemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'ml_session',
    });
    expect(securitySchemes.csrfToken).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'x-csrf-token',
    });
    expect(securitySchemes.operatorKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const scheme of Object.values(securitySchemes)) expect(scheme.description).toMatch(/\w/);

    expect(document.info.title).toBe('Meterline platform API');
    const { description } = document.info;
    expect(description).toContain(`curl -s -c jar -b jar ${server.url}/platform/auth/csrf`);
    expect(description).toContain(`-X POST ${server.url}/platform/auth/sign-in`);
    expect(description).not.toContain('localhost:8080');
    expect(description).toContain('"x-csrf-token: $TOKEN"');
    expect(description).toContain('authorization: Bearer $METERING_API_KEY');
  });

  it("is right: the example's steps work as written, and fail as it says without the header", async () => {
    const jar = new Jar();
    const send = async (path: string, init: RequestInit = {}) => {
      const response = await fetch(`${server.url}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), cookie: jar.header() },
      });
      jar.keep(response);
      return response;
    };
    const token = async () =>
      ((await (await send('/platform/auth/csrf')).json()) as { token: string }).token;
    const json = { 'content-type': 'application/json' };

    // 1 and 2: a token, then sign in with it.
    const before = await token();
    const signIn = await send('/platform/auth/sign-in', {
      method: 'POST',
      headers: { ...json, 'x-csrf-token': before },
      body: JSON.stringify({ email: 'owner@example.com', password: 'billing-demo-2026' }),
    });
    expect(signIn.status).toBe(200);
    // 3: a read with the cookie alone.
    expect((await send('/platform/organizations/acme-pro/billing/subscription')).status).toBe(200);

    const change = (headers: Record<string, string>) =>
      send('/platform/organizations/acme-pro', {
        method: 'PATCH',
        headers: { ...json, ...headers },
        body: JSON.stringify({ billing_email: 'billing@acme.example.com' }),
      });
    // The token from before signing in no longer matches; none at all neither.
    const stale = await change({ 'x-csrf-token': before });
    expect([stale.status, await stale.json()]).toEqual([403, { message: 'Invalid csrf token' }]);
    expect((await change({})).status).toBe(403);
    // 4: a new token, in the header.
    expect((await change({ 'x-csrf-token': await token() })).status).toBe(200);

    // The operator key.
    const events = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${KEY}` },
      body: JSON.stringify({
        events: [
          {
            id: 'evt-0001',
            project_ref: 'acmepro1',
            metric: 'EGRESS',
            usage: 1_500_000_000,
            timestamp: Math.floor(Date.now() / 1000),
          },
        ],
      }),
    });
    expect([events.status, await events.json()]).toEqual([200, { accepted: 1, duplicates: 0 }]);
  });

  it("serves the reference page with the product's name and look", async () => {
    const page = await fetch(`${server.url}/platform/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>API reference · Meterline</title>');
    const stylesheet = /href="([^"]*meterline\.css)"/.exec(html)?.[1];
    expect(stylesheet).toBeDefined();
    const css = await fetch(new URL(stylesheet ?? '', `${server.url}/platform/docs/`));
    expect(css.status).toBe(200);
    expect(await css.text()).toContain('html.dark-mode');
  });
});
