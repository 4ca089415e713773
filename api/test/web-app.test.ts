import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.ts';

describe('the web app, served from the same origin', () => {
  const dist = mkdtempSync(join(tmpdir(), 'meterline-web-'));
  let server: TestServer;
  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Meterline</title>');
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log("app")');
    server = await startTestServer({ env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (path: string) => fetch(`${server.url}${path}`);

  it.each(['/', '/sign-in', '/org/acme-pro/billing', '/org/_/usage?source=test'])(
    '%s is the app page',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/html');
      expect(await response.text()).toContain('<title>Meterline</title>');
    },
  );

  it('serves its files, and a missing one is a 404, never the page', async () => {
    expect((await get('/assets/app.js')).status).toBe(200);
    const missing = await get('/assets/gone-1234.js');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: 'No route for GET /assets/gone-1234.js' });
  });

  it('answers an unknown API path with JSON, not the page', async () => {
    const response = await get('/platform/nothing-here');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});
