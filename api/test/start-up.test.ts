import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/repo-root.ts';
import { startupBlock } from '../src/startup-summary.ts';
import { runServer } from './support/run-entry.ts';

const DEMO_EMAILS = [
  'owner@example.com',
  'admin@example.com',
  'developer@example.com',
  'readonly@example.com',
  'outsider@example.com',
];

/** The block's last line: once it is out, the whole block is. */
const BLOCK_END = /API\s+(http:\/\/[^\s"]+)\/platform\/docs/;

describe('npm start, the real start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meterline-start-up-'));
  // Given as npm start is run with it: relative, from the repository's root. The server runs inside api/,
  // where the same words name another directory.
  const given = relative(REPO_ROOT, dataDir);
  const fromApiDir = resolve(REPO_ROOT, 'api', given);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const env = {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: given,
    WEB_DIST: '/nonexistent',
    BILLING_JOB_INTERVAL_SECONDS: '0',
  };

  it('prints one block: the URL, the demo world, who to sign in as, where the data lives, how to reset', async () => {
    let url = '';
    const run = await runServer(env, {
      line: BLOCK_END,
      then: async ([, found = '']) => {
        url = found;
        expect((await fetch(`${url}/platform/openapi.json`)).status).toBe(200);
      },
    });
    expect(run.thenError).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);

    const block = run.stdout.slice(run.stdout.indexOf('Meterline is running on'));
    expect(block.split('\n')[0]).toBe(`Meterline is running on ${url}`);
    expect(block).toContain('Demo world  seeded into the empty store just now');
    for (const email of DEMO_EMAILS) expect(block).toContain(email);
    expect(block).toMatch(/Password {4}billing-demo-2026/);
    expect(block).toContain(`Data        embedded database in ${dataDir}\n`);
    expect(block).toContain(
      `\`DATA_DIR=${dataDir} npm run seed:demo\` to reset the demo organizations`,
    );
    expect(block).toContain(`or delete ${dataDir} to start from an empty store`);

    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(fromApiDir).not.toBe(dataDir);
    expect(existsSync(fromApiDir)).toBe(false);
  });

  it('says the demo world was kept on the next start, and logs one readable line per request', async () => {
    const run = await runServer(
      { ...env, LOG_FORMAT: 'pretty' },
      {
        line: BLOCK_END,
        then: async ([, url]) => {
          const response = await fetch(`${url}/platform/profile`);
          await response.text();
          expect(response.status).toBe(401);
        },
      },
    );
    expect(run.thenError).toBeUndefined();
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('Demo world  kept as an earlier start left it');
    expect(run.stdout).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/platform\/profile 401 \d+ ms$/m);
    expect(run.stdout).not.toContain('incoming request');
  });
});

describe('the start-up block', () => {
  const url = 'http://localhost:8080';

  it('names no users or password when the demo world was not seeded', () => {
    const block = startupBlock({
      url,
      store: { kind: 'pglite', dataDir: join(REPO_ROOT, '.data') },
      demoWorld: 'off',
    });
    expect(block).toContain('Demo world  not seeded (SEED_DEMO=never)');
    expect(block).not.toContain('billing-demo-2026');
    expect(block).not.toContain('owner@example.com');
    // The default directory needs no DATA_DIR to be reset.
    expect(block).toContain('then `npm run seed:demo` to reset');
    expect(block).not.toContain('seeded again');
  });

  it('on a PostgreSQL server, names the schema and never the URL, which holds the password', () => {
    const block = startupBlock({
      url,
      store: { kind: 'postgres', schema: 'meterline' },
      demoWorld: 'reset',
    });
    expect(block).toContain('Data        PostgreSQL server of DATABASE_URL, schema meterline');
    expect(block).toContain('Demo world  reset by this start (SEED_DEMO=always)');
    expect(block).toContain('`npm run seed:demo` with the same DATABASE_URL and DATABASE_SCHEMA');
  });
});
