import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFrom } from '../src/config.ts';
import { startServer } from '../src/server.ts';
import { TestClient } from './support/server.ts';

describe('the embedded store under DATA_DIR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'meterline-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const start = () =>
    startServer({
      config: configFrom({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: dataDir }),
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
});
