import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import {
  deleteEndedRateLimitWindows,
  RateLimitCounters,
  type RateLimitKey,
} from '../src/repositories/rate-limits.ts';
import { startTestServer, TestClient, testDatabases, type TestServer } from './support/server.ts';

// The security limits count in the database (repositories/rate-limits.ts): one count per key, however many
// processes serve on it. First the counters themselves, on both databases; then two real server processes
// on one PostgreSQL database, which must refuse at the same total as one process does.

const KEY = 'test-metering-key-0123456789';
const API_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

describe.each(testDatabases())('the shared counters (%s)', (database) => {
  const clock = fixedClock(new Date('2026-03-01T12:00:00Z'));
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, clock });
  });
  afterAll(() => server.close());

  const counters = () => new RateLimitCounters(server.database.db);
  let keyNumber = 0;
  const nextKey = (): RateLimitKey => ({ limit: 'test', subject: `subject-${++keyNumber}` });

  it('gives each of many hits at once a count of its own', async () => {
    const key = nextKey();
    const store = counters();
    const hits = await Promise.all(
      Array.from({ length: 40 }, () => store.hit(key, 60_000, clock.now())),
    );
    expect(hits.map((hit) => hit.hits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, index) => index + 1),
    );
    expect(new Set(hits.map((hit) => hit.expiresAt.getTime())).size).toBe(1);
  });

  it('starts a new window once the old one has ended, and takes a hit back within its own window only', async () => {
    const key = nextKey();
    const store = counters();
    const first = await store.hit(key, 60_000, clock.now());
    await store.hit(key, 60_000, clock.now());
    expect((await store.peek(key, clock.now())).hits).toBe(2);
    clock.advance(60);
    expect((await store.peek(key, clock.now())).hits).toBe(0);
    const fresh = await store.hit(key, 60_000, clock.now());
    expect(fresh.hits).toBe(1);
    expect(fresh.expiresAt.getTime()).toBe(clock.now().getTime() + 60_000);
    // The first window's hit is not taken from the new window.
    await store.takeBack(first);
    expect((await store.peek(key, clock.now())).hits).toBe(1);
    await store.takeBack(fresh);
    expect((await store.peek(key, clock.now())).hits).toBe(0);
  });

  it('deletes the windows that ended, now and then on a hit, and only those', async () => {
    const db = server.database.db;
    const ended = nextKey();
    const live = nextKey();
    const store = new RateLimitCounters(db, 0);
    await store.hit(ended, 1_000, clock.now());
    await store.hit(live, 60 * 60_000, clock.now());
    clock.advance(2);
    const endedWindows = async () =>
      (
        await db
          .selectFrom('rate_limit_windows')
          .select('key')
          .where('expires_at', '<=', clock.now())
          .execute()
      ).length;
    expect(await endedWindows()).toBeGreaterThan(0);
    // Any hit sweeps (at most once a minute outside this test): the ended windows go, the live one stays.
    await store.hit(nextKey(), 60_000, clock.now());
    expect(await endedWindows()).toBe(0);
    expect((await store.peek(live, clock.now())).hits).toBe(1);
    expect(await deleteEndedRateLimitWindows(db, clock.now())).toBe(0);
  });
});

/** The real server's entry in a process of its own, on the given database and schema. */
async function startServerProcess(
  databaseUrl: string,
  schema: string,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: API_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      WEB_DIST: '/nonexistent',
      BILLING_JOB_INTERVAL_SECONDS: '0',
      METERING_API_KEY: KEY,
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'pretty',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const giveUp = setTimeout(() => reject(new Error(`no start in time:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /API\s+(http:\/\/[^\s"]+)\/platform\/docs/.exec(output);
      if (found?.[1]) {
        clearTimeout(giveUp);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

const databaseUrl = process.env.TEST_DATABASE_URL;
if (!databaseUrl) {
  console.warn('The two-process rate limit tests are skipped: TEST_DATABASE_URL is not set');
}

describe.skipIf(!databaseUrl)('two server processes on one PostgreSQL database', () => {
  let first: TestServer;
  let second: { url: string; stop: () => Promise<void> };

  beforeAll(async () => {
    // The first serves in this process (it makes the schema and the demo world); the second is the real
    // entry in another process, on the same schema.
    first = await startTestServer({ database: 'postgres', env: { METERING_API_KEY: KEY } });
    second = await startServerProcess(databaseUrl ?? '', first.schema ?? '');
  }, 90_000);
  afterAll(async () => {
    await second?.stop();
    await first?.close();
  });

  // Each case comes from addresses of its own (any of 127.0.0.0/8 reaches both servers).
  let lastAddress = 1;
  const nextAddress = () => `127.0.0.${++lastAddress}`;
  /** Clients of the two processes from one address: `at(n)` alternates between them. */
  const bothFrom = (address: string) => {
    const clients = [new TestClient(first.url, address), new TestClient(second.url, address)];
    return (n: number) => clients[n % 2] as TestClient;
  };
  let emailNumber = 0;

  it('refuses sign-in failures split over both at the same total as one: 20 an address', async () => {
    const at = bothFrom(nextAddress());
    for (let n = 0; n < 20; n++) {
      const email = `nobody-${++emailNumber}@example.com`;
      const response = await at(n).post('/platform/auth/sign-in', { email, password: 'wrong' });
      expect(response.status, `attempt ${n + 1}`).toBe(401);
    }
    for (const n of [20, 21]) {
      const email = `nobody-${++emailNumber}@example.com`;
      const response = await at(n).post('/platform/auth/sign-in', { email, password: 'wrong' });
      expect(response.status, `attempt ${n + 1}, at the ${n % 2 ? 'second' : 'first'}`).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('checks no more passwords than the limit when 40 wrong ones arrive at both at once', async () => {
    const at = bothFrom(nextAddress());
    await Promise.all([at(0).csrf(), at(1).csrf()]);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        at(n).post('/platform/auth/sign-in', {
          email: 'admin@example.com',
          password: `wrong-${n}`,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    // 5 failures per email and address: a 401 is a password checked, a 429 was refused before it.
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(35);
  });

  it("holds a route's request ceiling over both: 30 captcha tokens a minute for one user", async () => {
    const owner = await first.signIn('owner@example.com');
    const csrf = await owner.csrf();
    // The session works at either process: the store is one.
    const captchaAt = (base: string) =>
      fetch(`${base}/platform/captcha`, {
        method: 'POST',
        headers: {
          cookie: `ml_session=${owner.cookie('ml_session')}; ml_csrf=${owner.cookie('ml_csrf')}`,
          'x-csrf-token': csrf,
        },
      });
    const statuses = await Promise.all(
      Array.from({ length: 34 }, (_, n) => captchaAt(n % 2 ? second.url : first.url)),
    ).then((responses) => responses.map((response) => response.status));
    expect(statuses.filter((status) => status === 200)).toHaveLength(30);
    expect(statuses.filter((status) => status === 429)).toHaveLength(4);
  });

  it('makes an address that guesses the operator key at both wait at both, even with the right key', async () => {
    const at = bothFrom(nextAddress());
    const send = (n: number, key: string) =>
      at(n).request(
        'POST',
        '/internal/usage-events',
        { events: [] },
        { authorization: `Bearer ${key}` },
        { csrf: false },
      );
    for (let n = 0; n < 10; n++) {
      expect((await send(n, `guess-${n}-0123456789`)).status, `guess ${n + 1}`).toBe(401);
    }
    expect((await send(10, 'guess-10-0123456789')).status).toBe(429);
    expect((await send(11, KEY)).status).toBe(429);
    expect((await send(12, KEY)).status).toBe(429);
    // Another address is not held back: the key is accepted there (an empty batch is then a 400 or a 200).
    const other = bothFrom(nextAddress());
    const elsewhere = await other(1).request(
      'POST',
      '/internal/usage-events',
      { events: [] },
      { authorization: `Bearer ${KEY}` },
      { csrf: false },
    );
    expect([200, 400]).toContain(elsewhere.status);
  });
});
