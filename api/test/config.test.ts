import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../src/config.ts';
import { REPO_ROOT } from '../src/repo-root.ts';

describe('configuration', () => {
  it('runs on the embedded defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8080,
      DATA_DIR: join(REPO_ROOT, '.data'),
      WEB_DIST: join(REPO_ROOT, 'web/dist'),
      DISABLE_PROJECT_CREATION_AND_UPDATES: false,
      DISABLED_FEATURES: [],
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("reads relative paths from the repository's root, whatever the working directory", () => {
    // `npm start` runs the server inside api/, where ./.data would be api/.data (start-up.test.ts runs it so).
    const config = loadConfig({ DATA_DIR: 'stores/demo', WEB_DIST: './web/build' });
    expect(config.DATA_DIR).toBe(join(REPO_ROOT, 'stores/demo'));
    expect(config.WEB_DIST).toBe(join(REPO_ROOT, 'web/build'));
    expect(loadConfig({ DATA_DIR: '/var/lib/meterline' }).DATA_DIR).toBe('/var/lib/meterline');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' })).toMatchObject({ PORT: 8080 });
  });

  it('reads the switches', () => {
    const config = loadConfig({
      DISABLE_PROJECT_CREATION_AND_UPDATES: 'true',
      DISABLED_FEATURES: 'invoices, credits',
    });
    expect(config.DISABLE_PROJECT_CREATION_AND_UPDATES).toBe(true);
    expect(config.DISABLED_FEATURES).toEqual(['invoices', 'credits']);
  });

  it('names every bad value in one message', () => {
    const attempt = () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://localhost/x',
        DISABLED_FEATURES: 'invoices,teleport',
        DISABLE_PROJECT_CREATION_AND_UPDATES: 'maybe',
      });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
      expect(message).toContain('unknown feature teleport');
      expect(message).toContain('DISABLE_PROJECT_CREATION_AND_UPDATES');
    }
  });

  it('waits an hour for late usage before closing a cycle, unless told otherwise', () => {
    expect(loadConfig({}).BILLING_CLOSE_GRACE_MINUTES).toBe(60);
    expect(loadConfig({ BILLING_CLOSE_GRACE_MINUTES: '0' }).BILLING_CLOSE_GRACE_MINUTES).toBe(0);
    for (const bad of ['-1', '1.5', 'an hour', '10081']) {
      expect(() => loadConfig({ BILLING_CLOSE_GRACE_MINUTES: bad })).toThrow(
        /BILLING_CLOSE_GRACE_MINUTES/,
      );
    }
  });
});

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return '';
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
};

const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' };
const HCAPTCHA = { HCAPTCHA_SITE_KEY: 'site', HCAPTCHA_SECRET: 'secret' };

describe('the payment provider and the captcha', () => {
  it('follow the keys unless named', () => {
    expect(loadConfig({})).toMatchObject({
      PAYMENT_PROVIDER: 'simulator',
      CAPTCHA_PROVIDER: 'builtin',
    });
    expect(loadConfig({ ...STRIPE, ...HCAPTCHA })).toMatchObject({
      PAYMENT_PROVIDER: 'stripe',
      CAPTCHA_PROVIDER: 'hcaptcha',
    });
    expect(
      loadConfig({
        ...STRIPE,
        ...HCAPTCHA,
        PAYMENT_PROVIDER: 'stripe',
        CAPTCHA_PROVIDER: 'hcaptcha',
      }),
    ).toMatchObject({ PAYMENT_PROVIDER: 'stripe', CAPTCHA_PROVIDER: 'hcaptcha' });
    expect(
      loadConfig({ PAYMENT_PROVIDER: 'simulator', CAPTCHA_PROVIDER: 'builtin' }),
    ).toMatchObject({ PAYMENT_PROVIDER: 'simulator', CAPTCHA_PROVIDER: 'builtin' });
  });

  it('refuse a named provider without its keys, a built-in one beside keys, and an unknown name', () => {
    const message = problemsOf({
      PAYMENT_PROVIDER: 'stripe',
      CAPTCHA_PROVIDER: 'hcaptcha',
    });
    expect(message).toContain(
      'PAYMENT_PROVIDER: stripe needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY',
    );
    expect(message).toContain(
      'CAPTCHA_PROVIDER: hcaptcha needs HCAPTCHA_SITE_KEY and HCAPTCHA_SECRET',
    );
    const beside = problemsOf({
      ...STRIPE,
      ...HCAPTCHA,
      PAYMENT_PROVIDER: 'simulator',
      CAPTCHA_PROVIDER: 'builtin',
    });
    expect(beside).toContain(
      'PAYMENT_PROVIDER: simulator, but STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are set',
    );
    expect(beside).toContain(
      'CAPTCHA_PROVIDER: builtin, but HCAPTCHA_SITE_KEY and HCAPTCHA_SECRET',
    );
    expect(problemsOf({ PAYMENT_PROVIDER: 'paypal' })).toContain('PAYMENT_PROVIDER');
  });
});

describe('SEED_DEMO', () => {
  it('is auto unless set to always or never', () => {
    expect(loadConfig({}).SEED_DEMO).toBe('auto');
    expect(loadConfig({ SEED_DEMO: 'always' }).SEED_DEMO).toBe('always');
    expect(loadConfig({ SEED_DEMO: 'never' }).SEED_DEMO).toBe('never');
    expect(problemsOf({ SEED_DEMO: 'sometimes' })).toContain('SEED_DEMO');
  });
});

describe('production mode (NODE_ENV=production)', () => {
  const production = { NODE_ENV: 'production' };
  const realProviders = {
    ...production,
    ...STRIPE,
    ...HCAPTCHA,
    SEED_DEMO: 'never',
    COOKIE_SECURE: 'true',
    SMTP_URL: 'smtp://mailer:secret@smtp.example.com:587',
    PUBLIC_URL: 'https://billing.example.com',
  };

  it('names every part of the laptop demo left to chance, in one message', () => {
    const message = problemsOf(production);
    expect(message).toContain(
      'PAYMENT_PROVIDER: production would take payments with the built-in simulator',
    );
    expect(message).toContain(
      'CAPTCHA_PROVIDER: production would check captchas with the built-in',
    );
    expect(message).toContain('SEED_DEMO: production would seed the demo world');
    expect(message).toContain('COOKIE_SECURE: auto marks cookies Secure only on HTTPS requests');
    expect(message).toContain(
      'EMAIL_PROVIDER: production would keep billing mail in the built-in outbox',
    );
    expect(message).toContain("PUBLIC_URL: production mail links to the product's public address");
    expect(message.split('\n')).toHaveLength(7);
  });

  it('starts with the real providers, no demo world and Secure cookies', () => {
    expect(problemsOf(realProviders)).toBe('');
    expect(loadConfig(realProviders)).toMatchObject({
      PAYMENT_PROVIDER: 'stripe',
      CAPTCHA_PROVIDER: 'hcaptcha',
      SEED_DEMO: 'never',
      EMAIL_PROVIDER: 'smtp',
      PUBLIC_URL: 'https://billing.example.com',
    });
  });

  it('runs the built-in stand-ins and the demo world when named, as a public demo server would', () => {
    expect(
      problemsOf({
        ...production,
        PAYMENT_PROVIDER: 'simulator',
        CAPTCHA_PROVIDER: 'builtin',
        SEED_DEMO: 'auto',
        COOKIE_SECURE: 'auto',
        TRUST_PROXY: '10.0.0.0/8',
        EMAIL_PROVIDER: 'outbox',
        PUBLIC_URL: 'https://demo.example.com/',
      }),
    ).toBe('');
  });

  it('never sends cookies without Secure, and takes auto only behind a trusted proxy', () => {
    expect(
      problemsOf({ ...realProviders, COOKIE_SECURE: 'false', TRUST_PROXY: '10.0.0.1' }),
    ).toContain('COOKIE_SECURE: production never sends cookies without Secure');
    expect(problemsOf({ ...realProviders, COOKIE_SECURE: 'auto' })).toContain(
      'COOKIE_SECURE: auto marks cookies Secure only on HTTPS requests',
    );
    expect(problemsOf({ ...realProviders, COOKIE_SECURE: 'auto', TRUST_PROXY: '10.0.0.1' })).toBe(
      '',
    );
  });

  it('leaves every other environment the demo', () => {
    expect(problemsOf({ NODE_ENV: 'development' })).toBe('');
    expect(problemsOf({ NODE_ENV: 'test', COOKIE_SECURE: 'false' })).toBe('');
  });
});

describe('TRUST_PROXY', () => {
  const problem = (value: string) => {
    try {
      loadConfig({ TRUST_PROXY: value });
      return '';
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  it("takes the proxies' addresses and ranges", () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).TRUST_PROXY).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
    ]);
    expect(loadConfig({ TRUST_PROXY: '::1,fd00::/8,uniquelocal' }).TRUST_PROXY).toEqual([
      '::1',
      'fd00::/8',
      'uniquelocal',
    ]);
  });

  it('refuses true and hop counts, which let a client choose its address, naming the form to use', () => {
    for (const value of ['true', '1']) {
      const message = problem(value);
      expect(message).toContain(`TRUST_PROXY: ${value === 'true' ? 'true would trust' : 'a hop'}`);
      expect(message).toContain('TRUST_PROXY=127.0.0.1,10.0.0.0/8');
    }
    expect(problem('2')).toContain(
      'TRUST_PROXY: a hop count cannot tell a proxy from a client that reaches the server directly',
    );
  });

  it('refuses ranges so wide that they trust any client, with a message instead of a crash', () => {
    for (const value of ['0.0.0.0/1,128.0.0.0/1', '0.0.0.0/0', '::/0', '2000::/3', '64.0.0.0/2']) {
      expect(problem(value), value).toContain('so much of the internet that any client could pose');
    }
    // Wide private ranges and a CDN's public ones are proxies' addresses.
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.0/8,fc00::/7,104.16.0.0/13,2a06:98c0::/29' }).TRUST_PROXY,
    ).toEqual(['10.0.0.0/8', 'fc00::/7', '104.16.0.0/13', '2a06:98c0::/29']);
  });

  it('names each entry that is neither an address nor a range', () => {
    expect(problem('10.0.0.0/33,proxy.internal, 127.0.0.1')).toContain(
      'TRUST_PROXY: "10.0.0.0/33", "proxy.internal" are not an IP address, a CIDR range',
    );
    expect(problem('yes')).toContain('"yes" is not an IP address');
    expect(problem('10.0.0.1/')).toContain('"10.0.0.1/" is not');
  });
});

describe('billing mail', () => {
  it('keeps mail in the built-in outbox unless an SMTP server is named', () => {
    expect(loadConfig({})).toMatchObject({
      EMAIL_PROVIDER: 'outbox',
      PUBLIC_URL: 'http://localhost:8080',
    });
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).EMAIL_PROVIDER).toBe('smtp');
    expect(loadConfig({ PUBLIC_URL: 'https://billing.example.com/' }).PUBLIC_URL).toBe(
      'https://billing.example.com',
    );
  });

  it('names a mail server that is not one, and SMTP chosen without its address', () => {
    expect(problemsOf({ SMTP_URL: 'http://mail.example.com' })).toContain(
      'SMTP_URL: must be an smtp://',
    );
    expect(problemsOf({ EMAIL_PROVIDER: 'smtp' })).toContain(
      'SMTP_URL: is required with EMAIL_PROVIDER=smtp',
    );
    expect(problemsOf({ PUBLIC_URL: 'ftp://example.com' })).toContain('PUBLIC_URL');
  });
});
