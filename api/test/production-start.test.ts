import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runServer } from './support/run-entry.ts';

describe('NODE_ENV=production, the real start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meterline-production-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to start with no configuration, naming each cause', async () => {
    const run = await runServer({ NODE_ENV: 'production', DATA_DIR: dataDir });
    expect(run.code).not.toBe(0);
    expect(run.code).not.toBeNull();
    expect(run.stderr).toContain('Invalid configuration:');
    for (const cause of [
      'PAYMENT_PROVIDER: production would take payments with the built-in simulator',
      'CAPTCHA_PROVIDER: production would check captchas with the built-in captcha',
      'SEED_DEMO: production would seed the demo world',
      'COOKIE_SECURE: auto marks cookies Secure only on HTTPS requests',
      'EMAIL_PROVIDER: production would keep billing mail in the built-in outbox',
    ]) {
      expect(run.stderr).toContain(cause);
    }
    expect(run.stdout).not.toContain('Meterline is running');
  });

  it('starts with the real providers, no demo world and Secure cookies, and stops cleanly', async () => {
    const run = await runServer(
      {
        NODE_ENV: 'production',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        STRIPE_SECRET_KEY: 'sk_test_production_start',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_production_start',
        HCAPTCHA_SITE_KEY: 'site-key',
        HCAPTCHA_SECRET: 'secret',
        SEED_DEMO: 'never',
        COOKIE_SECURE: 'true',
        SMTP_URL: 'smtp://127.0.0.1:9',
        PUBLIC_URL: 'https://billing.example.com',
      },
      {
        line: /Meterline is running on (http:\/\/[^\s"]+)/,
        then: async ([, url]) => {
          const response = await fetch(`${url}/platform/openapi.json`);
          expect(response.status).toBe(200);
        },
      },
    );
    expect(run.thenError).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Meterline is running on');
    // JSON lines for the log collector, and no demo block: the demo world was not chosen.
    for (const line of run.stdout.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    expect(run.stdout).not.toContain('billing-demo-2026');
    expect(run.code).toBe(0);
  });
});
