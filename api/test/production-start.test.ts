import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The server's entry, run as `npm run serve` runs it: a real process, the real environment parsing.
const API_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A server that neither refuses nor shows its line by then is stopped, so the test fails instead of hanging. */
const GIVE_UP_MS = 45_000;

/**
 * Starts the entry with only this environment (nothing inherited but PATH) and answers how it ended.
 * `once` runs when stdout shows the line, then the server is stopped the way an operator stops it.
 */
function runServer(
  env: Record<string, string>,
  once?: { line: RegExp; then: (match: RegExpMatchArray) => Promise<void> },
): Promise<Run & { thenError?: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    let thenError: unknown;
    let seen = false;
    const giveUp = setTimeout(() => child.kill('SIGKILL'), GIVE_UP_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = once && !seen ? stdout.match(once.line) : null;
      if (match && once) {
        seen = true;
        once
          .then(match)
          .catch((error: unknown) => (thenError = error))
          .finally(() => child.kill('SIGTERM'));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(giveUp);
      resolve({ code, stdout, stderr, thenError });
    });
  });
}

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
    expect(run.code).toBe(0);
  });
});
