import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';

describe.each(testDatabases())('sign-in and sessions (%s)', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(() => server.close());

  it('signs in with the demo password and sets an httpOnly, SameSite session cookie', async () => {
    const client = server.client();
    const response = await client.post<{ user: { email: string } }>('/platform/auth/sign-in', {
      email: 'Owner@Example.com',
      password: 'billing-demo-2026',
    });
    expect(response.status).toBe(200);
    expect(response.body.user.email).toBe('owner@example.com');
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('ml_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const profile = await client.get<{ user: { email: string } }>('/platform/profile');
    expect(profile.status).toBe(200);
    expect(profile.body.user.email).toBe('owner@example.com');
  });

  it('renews the CSRF secret at sign-in: a token obtained before no longer works', async () => {
    const client = server.client();
    const before = await client.csrf();
    const secretBefore = client.cookie('ml_csrf');
    const signedIn = await client.post('/platform/auth/sign-in', {
      email: 'owner@example.com',
      password: 'billing-demo-2026',
    });
    expect(signedIn.status).toBe(200);
    const renewed = signedIn.headers.getSetCookie().find((value) => value.startsWith('ml_csrf='));
    expect(renewed).toMatch(/HttpOnly/i);
    expect(renewed).toMatch(/SameSite=Strict/i);
    expect(client.cookie('ml_csrf')).not.toBe(secretBefore);
    const update = { billing_email: 'billing@acme.example.com' };
    const stale = await client.request(
      'PATCH',
      '/platform/organizations/acme-pro',
      update,
      { 'x-csrf-token': before },
      { csrf: false },
    );
    expect(stale.status).toBe(403);
    expect((stale.body as { message: string }).message).toMatch(/csrf/i);
    expect((await client.request('PATCH', '/platform/organizations/acme-pro', update)).status).toBe(
      200,
    );
  });

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const client = server.client();
    const wrong = await client.post('/platform/auth/sign-in', {
      email: 'admin@example.com',
      password: 'not-it',
    });
    const unknown = await client.post('/platform/auth/sign-in', {
      email: 'nobody@example.com',
      password: 'billing-demo-2026',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: 'Invalid email or password' });
    expect(unknown.body).toEqual(wrong.body);
    expect(client.cookie('ml_session')).toBeUndefined();
  });

  it('answers 400 naming the field for a malformed body', async () => {
    const response = await server
      .client()
      .post('/platform/auth/sign-in', { email: 'not-an-email' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Email must be a valid email address' });
  });

  it('refuses a mutation without the CSRF token', async () => {
    const client = server.client();
    const response = await client.request(
      'POST',
      '/platform/auth/sign-in',
      { email: 'owner@example.com', password: 'billing-demo-2026' },
      {},
      { csrf: false },
    );
    expect(response.status).toBe(403);
    expect((response.body as { message: string }).message).toMatch(/csrf/i);
  });

  it('refuses a CSRF token forged without the secret cookie', async () => {
    const client = server.client();
    const response = await client.request(
      'POST',
      '/platform/auth/sign-in',
      { email: 'owner@example.com', password: 'billing-demo-2026' },
      { 'x-csrf-token': 'forged-token' },
      { csrf: false },
    );
    expect(response.status).toBe(403);
  });

  it('signs out: the session no longer works, at once, on any route', async () => {
    const client = await server.signIn('admin@example.com');
    const stolenCookie = client.cookie('ml_session');
    const orgRoute = '/platform/organizations/acme-pro/billing/invoices';
    // Used first, so that whatever the guard keeps about the session is there to be forgotten.
    expect((await client.get('/platform/profile')).status).toBe(200);
    expect((await client.get(orgRoute)).status).toBe(200);
    expect((await client.post('/platform/auth/sign-out')).status).toBe(204);
    expect((await client.get('/platform/profile')).status).toBe(401);
    for (const path of ['/platform/profile', orgRoute]) {
      const replay = await fetch(`${server.url}${path}`, {
        headers: { cookie: `ml_session=${stolenCookie}` },
      });
      expect(replay.status).toBe(401);
    }
  });

  it('ignores a made-up session cookie', async () => {
    const response = await fetch(`${server.url}/platform/profile`, {
      headers: { cookie: 'ml_session=made-up' },
    });
    expect(response.status).toBe(401);
  });
});

describe.each(testDatabases())('session lifetime (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      database,
      clock,
      env: { SESSION_TTL_HOURS: '1', SESSION_MAX_HOURS: '2' },
    });
  });
  afterAll(() => server.close());

  const minutes = (count: number) => clock.advance(count * 60);
  const orgRoute = '/platform/organizations/acme-pro/billing/invoices';
  const cookieExpiry = (setCookie: string | undefined) =>
    Date.parse(/expires=([^;]+)/i.exec(setCookie ?? '')?.[1] ?? '');

  it('ends an unused session at its expiry, even one used a moment before the renewal point', async () => {
    const client = await server.signIn('owner@example.com');
    minutes(20);
    expect((await client.get('/platform/profile')).status).toBe(200);
    expect((await client.get(orgRoute)).status).toBe(200);
    minutes(40);
    expect((await client.get('/platform/profile')).status).toBe(401);
    expect((await client.get(orgRoute)).status).toBe(401);
  });

  it('renews a session in use, cookie included, but never past its maximum age', async () => {
    const client = await server.signIn('owner@example.com');
    minutes(50);
    const renewed = await client.get(orgRoute);
    expect(renewed.status).toBe(200);
    expect(cookieExpiry(renewed.headers.get('set-cookie') ?? undefined)).toBe(
      Math.floor((clock.now().getTime() + 3600_000) / 1000) * 1000,
    );
    minutes(50);
    // 100 minutes after sign-in: alive only because it was renewed.
    expect((await client.get('/platform/profile')).status).toBe(200);
    minutes(19);
    expect((await client.get(orgRoute)).status).toBe(200);
    // Two hours after sign-in it ends, however much it was used.
    minutes(2);
    expect((await client.get(orgRoute)).status).toBe(401);
    expect((await client.get('/platform/profile')).status).toBe(401);
  });
});

describe('cookies when they are Secure', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { COOKIE_SECURE: 'true' } });
  });
  afterAll(() => server.close());

  const setCookie = (response: { headers: Headers }, name: string) =>
    response.headers.getSetCookie().find((value) => value.startsWith(`${name}=`));
  const expectHostOnly = (cookie: string | undefined) => {
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\/(;|$)/i);
    expect(cookie).not.toMatch(/Domain=/i);
    expect(cookie).toMatch(/HttpOnly/i);
  };

  it('names them __Host-, so that no other host or plain-http answer can plant them', async () => {
    const client = server.client();
    const csrf = await client.request('GET', '/platform/auth/csrf');
    expectHostOnly(setCookie(csrf, '__Host-ml_csrf'));
    expect(setCookie(csrf, '__Host-ml_csrf')).toMatch(/SameSite=Strict/i);
    const signedIn = await client.post('/platform/auth/sign-in', {
      email: 'owner@example.com',
      password: 'billing-demo-2026',
    });
    expect(signedIn.status).toBe(200);
    expectHostOnly(setCookie(signedIn, '__Host-ml_session'));
    expect(setCookie(signedIn, '__Host-ml_session')).toMatch(/SameSite=Lax/i);
    expectHostOnly(setCookie(signedIn, '__Host-ml_csrf'));
    expect(setCookie(signedIn, 'ml_session')).toBeUndefined();
    expect((await client.get('/platform/profile')).status).toBe(200);
    expect(
      (
        await client.request('PATCH', '/platform/organizations/acme-pro', {
          billing_email: 'billing@acme.example.com',
        })
      ).status,
    ).toBe(200);

    const signedOut = await client.post('/platform/auth/sign-out');
    expect(signedOut.status).toBe(204);
    const cleared = setCookie(signedOut, '__Host-ml_session');
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/i);
    expect(cleared).toMatch(/; Secure/i);
  });

  it('ignores the plain names, which anyone able to set a cookie for the site could plant', async () => {
    const client = await server.signIn('admin@example.com');
    const token = client.cookie('__Host-ml_session');
    expect(token).toBeDefined();
    const planted = await fetch(`${server.url}/platform/profile`, {
      headers: { cookie: `ml_session=${token}` },
    });
    expect(planted.status).toBe(401);

    const csrf = await server.client().request<{ token: string }>('GET', '/platform/auth/csrf');
    const secret = setCookie(csrf, '__Host-ml_csrf')?.split(';')[0]?.split('=')[1] ?? '';
    const withPlainSecret = await fetch(`${server.url}/platform/auth/sign-in`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-csrf-token': csrf.body.token,
        cookie: `ml_csrf=${secret}`,
      },
      body: JSON.stringify({ email: 'owner@example.com', password: 'billing-demo-2026' }),
    });
    expect(withPlainSecret.status).toBe(403);
  });
});

describe('sign-in failure limits', () => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());

  // Each case guesses from addresses of its own (every one of 127.0.0.0/8 reaches the server), and the
  // clock jumps past every window after it, so no case inherits another's counts.
  let lastAddress = 1;
  const nextAddress = () => `127.0.0.${++lastAddress}`;
  afterEach(() => clock.advance(60 * 60));

  const attempt = (from: string, email: string, password: string) =>
    server.client(from).post('/platform/auth/sign-in', { email, password });

  it('answers 429 with Retry-After after repeated failures for one email', async () => {
    const from = nextAddress();
    for (let count = 0; count < 5; count++) {
      expect((await attempt(from, 'developer@example.com', `wrong-${count}`)).status).toBe(401);
    }
    const limited = await attempt(from, 'developer@example.com', 'billing-demo-2026');
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // Another user is not locked out by someone else's failures.
    expect((await attempt(from, 'owner@example.com', 'billing-demo-2026')).status).toBe(200);
  });

  it('checks no more passwords than the limit when 60 wrong ones arrive at once', async () => {
    const client = server.client(nextAddress());
    await client.csrf();
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, index) =>
        client.post('/platform/auth/sign-in', {
          email: 'admin@example.com',
          password: `wrong-${index}`,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    // A 401 is a password checked; a 429 was refused before the check.
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(55);
  });

  it("a stranger's failures do not lock the owner out at another address", async () => {
    const stranger = nextAddress();
    for (let count = 0; count < 5; count++) {
      expect((await attempt(stranger, 'owner@example.com', `guess-${count}`)).status).toBe(401);
    }
    expect((await attempt(stranger, 'owner@example.com', 'billing-demo-2026')).status).toBe(429);
    const owner = await attempt(nextAddress(), 'owner@example.com', 'billing-demo-2026');
    expect(owner.status).toBe(200);
  });

  it('limits one address over many emails', async () => {
    const from = nextAddress();
    for (let count = 0; count < 20; count++) {
      const email = `nobody-${count % 4}@example.com`;
      expect((await attempt(from, email, 'wrong')).status).toBe(401);
    }
    expect((await attempt(from, 'readonly@example.com', 'billing-demo-2026')).status).toBe(429);
    expect((await attempt(nextAddress(), 'readonly@example.com', 'billing-demo-2026')).status).toBe(
      200,
    );
  });

  it('slows a guess spread over many addresses for a minute at most', async () => {
    for (let count = 0; count < 10; count++) {
      expect((await attempt(nextAddress(), 'developer@example.com', 'wrong')).status).toBe(401);
    }
    const limited = await attempt(nextAddress(), 'developer@example.com', 'billing-demo-2026');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    clock.advance(61);
    expect(
      (await attempt(nextAddress(), 'developer@example.com', 'billing-demo-2026')).status,
    ).toBe(200);
  });

  it('lets an address try again once its window has passed, never later', async () => {
    const from = nextAddress();
    for (let count = 0; count < 5; count++) {
      expect((await attempt(from, 'admin@example.com', 'wrong')).status).toBe(401);
    }
    const limited = await attempt(from, 'admin@example.com', 'billing-demo-2026');
    expect(limited.status).toBe(429);
    clock.advance(Number(limited.headers.get('retry-after')));
    expect((await attempt(from, 'admin@example.com', 'billing-demo-2026')).status).toBe(200);
  });

  it('does not count a successful sign-in as a failure', async () => {
    const from = nextAddress();
    for (let count = 0; count < 12; count++) {
      expect((await attempt(from, 'readonly@example.com', 'billing-demo-2026')).status).toBe(200);
    }
  });
});
