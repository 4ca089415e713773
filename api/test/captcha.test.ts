import { CAPTCHA_FAILED_MESSAGE } from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { BuiltinCaptcha } from '../src/adapters/captcha/builtin-captcha.ts';
import { HCaptcha } from '../src/adapters/captcha/hcaptcha.ts';
import { captchaToken } from './support/payments.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const SETUP_URL = '/platform/organizations/acme-pro/payments/setup-intent';

describe.each(testDatabases())('the built-in captcha (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  let owner: TestClient;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer({ database, clock });
    owner = await server.signIn('owner@example.com');
    admin = await server.signIn('admin@example.com');
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

  it('issues a token to a signed-in user only, and keeps only its hash', async () => {
    expect((await server.client().post('/platform/captcha')).status).toBe(401);
    const token = await captchaToken(owner);
    expect(token.length).toBeGreaterThan(40);
    const rows = await db().selectFrom('captcha_tokens').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('counts tokens per user: two users behind one address each have a limit of their own', async () => {
    // Both sign in from this machine's one address (an office behind one NAT); neither asked for a token yet.
    const readonly = await server.signIn('readonly@example.com');
    const developer = await server.signIn('developer@example.com');
    const statuses: number[] = [];
    for (let n = 0; n < 31; n++) statuses.push((await readonly.post('/platform/captcha')).status);
    expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
    const limited = await readonly.post('/platform/captcha');
    expect(statuses[30]).toBe(429);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // The other user at the same address still gets all of theirs.
    for (let n = 0; n < 30; n++) {
      expect((await developer.post('/platform/captcha')).status, `token ${n + 1}`).toBe(200);
    }
  });

  it('passes a token once', async () => {
    const token = await captchaToken(owner);
    expect((await owner.post(SETUP_URL, { hcaptchaToken: token })).status).toBe(200);
    const second = await owner.post(SETUP_URL, { hcaptchaToken: token });
    expect(second).toMatchObject({ status: 400, body: { message: CAPTCHA_FAILED_MESSAGE } });
  });

  it('passes a token once even when two requests race with it', async () => {
    const token = await captchaToken(owner);
    const responses = await Promise.all([
      owner.post(SETUP_URL, { hcaptchaToken: token }),
      owner.post(SETUP_URL, { hcaptchaToken: token }),
      owner.post(SETUP_URL, { hcaptchaToken: token }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400]);

    const captcha = new BuiltinCaptcha(db(), clock);
    const id = await userId('owner@example.com');
    const direct = await captcha.issue(id);
    const verdicts = await Promise.all(
      Array.from({ length: 5 }, () => captcha.verify(direct, { userId: id })),
    );
    expect(verdicts.filter(Boolean)).toHaveLength(1);
  });

  it('expires a token after 5 minutes', async () => {
    const fresh = await captchaToken(owner);
    const stale = await captchaToken(owner);
    clock.advance(4 * 60 + 59);
    expect((await owner.post(SETUP_URL, { hcaptchaToken: fresh })).status).toBe(200);
    clock.advance(2);
    const expired = await owner.post(SETUP_URL, { hcaptchaToken: stale });
    expect(expired).toMatchObject({ status: 400, body: { message: CAPTCHA_FAILED_MESSAGE } });
  });

  it("does not pass another user's token", async () => {
    const adminToken = await captchaToken(admin);
    const stolen = await owner.post(SETUP_URL, { hcaptchaToken: adminToken });
    expect(stolen).toMatchObject({ status: 400, body: { message: CAPTCHA_FAILED_MESSAGE } });
    // Still good for its owner: a refused attempt consumes nothing.
    expect((await admin.post(SETUP_URL, { hcaptchaToken: adminToken })).status).toBe(200);
  });
});

describe('the hCaptcha adapter (no network: its verification call is faked)', () => {
  const log = { warn: () => {} };
  const answering = (status: number, body: unknown) => {
    const calls: { url: string; body: string }[] = [];
    const fetchImpl = async (url: string, init: RequestInit) => {
      calls.push({ url, body: String(init.body) });
      return new Response(JSON.stringify(body), { status });
    };
    return { calls, fetchImpl };
  };

  it('asks hCaptcha over HTTPS with the secret, and passes what it accepts', async () => {
    const { calls, fetchImpl } = answering(200, { success: true });
    const captcha = new HCaptcha('site-key', 'the-secret', log, fetchImpl);
    expect(await captcha.verify('widget-token', { userId: 'u', remoteIp: '10.0.0.1' })).toBe(true);
    expect(calls[0]?.url).toBe('https://api.hcaptcha.com/siteverify');
    const form = new URLSearchParams(calls[0]?.body);
    expect(form.get('secret')).toBe('the-secret');
    expect(form.get('response')).toBe('widget-token');
    expect(form.get('remoteip')).toBe('10.0.0.1');
  });

  it('fails closed on a refusal, an error answer or no answer', async () => {
    expect(
      await new HCaptcha('k', 's', log, answering(200, { success: false }).fetchImpl).verify('t', {
        userId: 'u',
      }),
    ).toBe(false);
    expect(
      await new HCaptcha('k', 's', log, answering(500, {}).fetchImpl).verify('t', { userId: 'u' }),
    ).toBe(false);
    const unreachable = async () => {
      throw new Error('ENOTFOUND');
    };
    expect(await new HCaptcha('k', 's', log, unreachable).verify('t', { userId: 'u' })).toBe(false);
  });
});

describe('payment and captcha configuration', () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return '';
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  it('takes both keys of a pair or neither', () => {
    expect(problems({ HCAPTCHA_SITE_KEY: 'site' })).toContain(
      'HCAPTCHA_SITE_KEY and HCAPTCHA_SECRET must be set together',
    );
    expect(problems({ HCAPTCHA_SECRET: 'secret' })).toContain('HCAPTCHA_SITE_KEY');
    expect(problems({ STRIPE_SECRET_KEY: 'sk_test_abc' })).toContain(
      'STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together',
    );
    expect(problems({ STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toContain(
      'STRIPE_WEBHOOK_SECRET: needs STRIPE_SECRET_KEY',
    );
    expect(
      problems({ STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }),
    ).toContain('same mode');
    expect(
      problems({ STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' }),
    ).toContain('STRIPE_SECRET_KEY: must be a Stripe secret key');
    expect(
      problems({
        STRIPE_SECRET_KEY: 'sk_test_abc',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
        STRIPE_WEBHOOK_SECRET: 'whsec_abc',
        HCAPTCHA_SITE_KEY: 'site',
        HCAPTCHA_SECRET: 'secret',
      }),
    ).toBe('');
    expect(problems({})).toBe('');
  });

  it('points Stripe at another address only with Stripe configured, and only over HTTP(S)', () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' };
    expect(problems({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111' })).toBe('');
    expect(loadConfig({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111' })).toMatchObject({
      STRIPE_API_URL: 'http://127.0.0.1:12111',
    });
    expect(problems({ ...stripe, STRIPE_API_URL: 'ftp://mock' })).toContain(
      'STRIPE_API_URL: must be an http:// or https:// URL',
    );
    expect(problems({ STRIPE_API_URL: 'http://127.0.0.1:12111' })).toContain(
      'STRIPE_API_URL: needs STRIPE_SECRET_KEY',
    );
  });
});
