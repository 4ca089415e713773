import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import pg from 'pg';
import { configFrom, type Config } from '../../src/config.ts';
import { startServer, type RunningServer, type StartOptions } from '../../src/server.ts';
import type { Clock } from '../../src/clock.ts';
import type { Db } from '../../src/db/database.ts';
import type { LogStream } from '../../src/log-options.ts';

export type TestDatabase = 'pglite' | 'postgres';

/** The embedded database always; a PostgreSQL server too when TEST_DATABASE_URL is set (as in CI). */
export function testDatabases(): TestDatabase[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestServer extends RunningServer {
  /** The PostgreSQL schema the server lives in, when on a PostgreSQL server. */
  schema: string | undefined;
  databaseUrl: string | undefined;
  /** A client connecting from `localAddress` (any of 127.0.0.0/8), to stand for another caller's address. */
  client(localAddress?: string): TestClient;
  signIn(email: string, password?: string): Promise<TestClient>;
  /** The id of the organization with this slug (the demo world's, or one a test made). */
  organizationId(slug: string): Promise<string>;
}

export interface StartTestServerOptions {
  database?: TestDatabase;
  env?: Partial<Record<keyof Config, string>>;
  clock?: Clock;
  wrapGateway?: StartOptions['wrapGateway'];
  /** Receives the server's log lines (with LOG_LEVEL set in `env`). */
  logStream?: LogStream;
}

/** A real server on a real socket, over a fresh database seeded with the demo world. */
export async function startTestServer(options: StartTestServerOptions = {}): Promise<TestServer> {
  const database = options.database ?? 'pglite';
  const databaseUrl = database === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  if (database === 'postgres' && !databaseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const schema = database === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const config = configFrom({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    // Tests drive the billing job themselves, with their own clock.
    BILLING_JOB_INTERVAL_SECONDS: '0',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  const server = await startServer({
    config,
    inMemory: true,
    ...(schema ? { schema } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.wrapGateway ? { wrapGateway: options.wrapGateway } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  return {
    ...server,
    schema,
    databaseUrl,
    client: (localAddress) => new TestClient(server.url, localAddress),
    organizationId: (slug) => organizationIdOf(server.database.db, slug),
    async signIn(email, password = 'billing-demo-2026') {
      const client = new TestClient(server.url);
      const response = await client.post('/platform/auth/sign-in', { email, password });
      if (response.status !== 200)
        throw new Error(`sign-in as ${email} answered ${response.status}`);
      return client;
    },
    async close() {
      await server.close();
      if (schema && databaseUrl) {
        const admin = new pg.Client({ connectionString: databaseUrl });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end();
      }
    },
  };
}

/** The id of the organization with this slug. */
export async function organizationIdOf(db: Db, slug: string): Promise<string> {
  const org = await db
    .selectFrom('organizations')
    .select('id')
    .where('slug', '=', slug)
    .executeTakeFirstOrThrow();
  return org.id;
}

export const DEMO_USERS = ['owner', 'admin', 'developer', 'readonly', 'outsider'] as const;
export type DemoUser = (typeof DEMO_USERS)[number];

/** Signs every demo user in once; `as(user)` is that user's client. */
export async function signInEveryone(server: TestServer): Promise<(user: string) => TestClient> {
  const clients = new Map<string, TestClient>();
  for (const user of DEMO_USERS) clients.set(user, await server.signIn(`${user}@example.com`));
  return (user) => {
    const client = clients.get(user);
    if (!client) throw new Error(`no client for ${user}`);
    return client;
  };
}

/**
 * Within a describe: a fresh server for it, with every demo user signed in, closed after its tests.
 * `server()` is the server, `as(user)` that user's client.
 */
export function useSignedInServer(options: StartTestServerOptions): {
  server: () => TestServer;
  as: (user: string) => TestClient;
} {
  let started: { server: TestServer; as: (user: string) => TestClient } | undefined;
  beforeAll(async () => {
    const server = await startTestServer(options);
    started = { server, as: await signInEveryone(server) };
  });
  afterAll(() => started?.server.close());
  const current = () => {
    if (!started) throw new Error('the test server did not start');
    return started;
  };
  return { server: () => current().server, as: (user) => current().as(user) };
}

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A browser-like client: keeps cookies and sends the CSRF header on mutations, unless told not to. */
export class TestClient {
  private readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;

  constructor(
    readonly baseUrl: string,
    private readonly localAddress?: string,
  ) {}

  get<T = unknown>(path: string, headers: Record<string, string> = {}) {
    return this.request<T>('GET', path, undefined, headers);
  }

  post<T = unknown>(path: string, body?: unknown, headers: Record<string, string> = {}) {
    return this.request<T>('POST', path, body, headers);
  }

  async csrf(): Promise<string> {
    if (!this.csrfToken) {
      const response = await this.request<{ token: string }>('GET', '/platform/auth/csrf');
      this.csrfToken = response.body.token;
    }
    return this.csrfToken;
  }

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    options: { csrf?: boolean } = {},
  ): Promise<TestResponse<T>> {
    const unsafe = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    const sendCsrf = unsafe && (options.csrf ?? true);
    const finalHeaders: Record<string, string> = { ...headers };
    if (sendCsrf) finalHeaders['x-csrf-token'] = await this.csrf();
    if (body !== undefined) finalHeaders['content-type'] = 'application/json';
    if (this.cookies.size > 0) {
      finalHeaders.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    const init = {
      method,
      headers: finalHeaders,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    };
    const response = this.localAddress
      ? await requestFrom(this.localAddress, this.baseUrl + path, init)
      : await fetch(this.baseUrl + path, { ...init, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
      // A new CSRF secret (sign-in renews it) makes the token of the old one useless, as in the web app.
      if (name.endsWith('ml_csrf')) this.csrfToken = undefined;
    }
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    const parsed =
      type.includes('application/json') && text ? (JSON.parse(text) as T) : (text as T);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  /** A binary answer (a PDF), with the session cookie. */
  async bytes(path: string): Promise<{ status: number; type: string; body: Uint8Array }> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(this.baseUrl + path, { headers: cookie ? { cookie } : {} });
    return {
      status: response.status,
      type: response.headers.get('content-type') ?? '',
      body: new Uint8Array(await response.arrayBuffer()),
    };
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }
}

/** fetch cannot choose its local address; node:http can, and its answer is read as a fetch Response. */
function requestFrom(
  localAddress: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: init.method, headers: init.headers, localAddress },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          const headers = new Headers();
          const raw = response.rawHeaders;
          for (let index = 0; index + 1 < raw.length; index += 2) {
            headers.append(raw[index] ?? '', raw[index + 1] ?? '');
          }
          const status = response.statusCode ?? 0;
          // A Response refuses a body, even an empty one, with these statuses.
          const body = [204, 205, 304].includes(status) ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers }));
        });
      },
    );
    request.on('error', reject);
    request.end(init.body);
  });
}
