import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.ts';
import { configFrom } from '../src/config.ts';
import { DataDirInUseError } from '../src/db/data-dir-lock.ts';
import { openDatabase } from '../src/db/database.ts';
import { seedDemoWorld } from '../src/seed/demo-world.ts';
import { startServer } from '../src/server.ts';
import { TestClient } from './support/server.ts';
import { runCli } from './support/cli.ts';

describe('the embedded store under DATA_DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meterline-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const start = (env: { SEED_DEMO?: string } = {}) =>
    startServer({
      config: configFrom({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        DATA_DIR: dataDir,
        ...env,
      }),
    });

  async function signInAsOwner(url: string): Promise<TestClient> {
    const client = new TestClient(url);
    await client.post('/platform/auth/sign-in', {
      email: 'owner@example.com',
      password: 'billing-demo-2026',
    });
    return client;
  }

  it('seeds an empty directory, keeps changes across a restart, and migrates once', async () => {
    const first = await start();
    const owner = await signInAsOwner(first.url);
    const changed = await owner.request('PATCH', '/platform/organizations/acme-pro', {
      billing_email: 'kept@acme.example.com',
    });
    expect(changed.status).toBe(200);
    await first.close();

    const second = await start();
    const again = await signInAsOwner(second.url);
    const org = await again.get<{ billing_email: string }>('/platform/organizations/acme-pro');
    expect(org.body.billing_email).toBe('kept@acme.example.com');
    await second.close();
  });

  it('resets the demo world (npm run seed:demo) with the same usage, not an empty one', async () => {
    const usageOf = async () => {
      const server = await start();
      const owner = await signInAsOwner(server.url);
      const usage = await owner.get<{ usages: { metric: string; usage: number }[] }>(
        '/platform/organizations/acme-pro/usage',
      );
      await server.close();
      expect(usage.status).toBe(200);
      return Object.fromEntries(usage.body.usages.map((entry) => [entry.metric, entry.usage]));
    };
    const before = await usageOf();
    expect(before.EGRESS).toBeGreaterThan(0);

    // The raw usage log has no foreign keys: the reset must remove its events itself, or the same event
    // ids would be taken for duplicates and the reset organizations would show no usage at all.
    const database = await openDatabase({ dataDir });
    await seedDemoWorld(database.db, systemClock);
    await database.close();

    expect(await usageOf()).toEqual(before);
  });

  it('starts every run from the demo world with SEED_DEMO=always', async () => {
    const emailOf = async (client: TestClient) =>
      (await client.get<{ billing_email: string }>('/platform/organizations/acme-pro')).body
        .billing_email;
    const first = await start();
    const owner = await signInAsOwner(first.url);
    const demoEmail = await emailOf(owner);
    await owner.request('PATCH', '/platform/organizations/acme-pro', {
      billing_email: 'changed@acme.example.com',
    });
    expect(await emailOf(owner)).toBe('changed@acme.example.com');
    await first.close();

    const second = await start({ SEED_DEMO: 'always' });
    expect(await emailOf(await signInAsOwner(second.url))).toBe(demoEmail);
    await second.close();
  });

  /** `npm run seed:demo` on this directory, as a process of its own: its exit code and what it printed. */
  const seedCommand = () => runCli('seed-demo', [], { DATA_DIR: dataDir, DATABASE_URL: undefined });

  it('refuses to reset the demo world beside a running server, in one line', async () => {
    const server = await start();
    try {
      const seed = await seedCommand();
      expect(seed.code).toBe(1);
      expect(seed.stdout).toBe('');
      expect(seed.stderr.trim().split('\n')).toEqual([
        `The embedded database in ${dataDir} is in use by another process (pid ${process.pid}): stop the server first.`,
      ]);
      // A second server, in this process or another, is refused the same way.
      await expect(openDatabase({ dataDir })).rejects.toBeInstanceOf(DataDirInUseError);
      expect((await (await signInAsOwner(server.url)).get('/platform/profile')).status).toBe(200);
    } finally {
      await server.close();
    }
    expect(existsSync(join(dataDir, 'meterline.lock'))).toBe(false);
  });

  it('takes over the lock a crashed process left behind', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(dataDir, 'meterline.lock'), String(gone));
    const database = await openDatabase({ dataDir });
    await database.close();
    expect(existsSync(join(dataDir, 'meterline.lock'))).toBe(false);
  });
});
