import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/server.ts';

// The web app's index.html carries an inline script (the theme applied before the first paint).
const THEME_SCRIPT = `
      (function () {
        document.documentElement.classList.toggle('dark', false);
      })();
    `;
const INDEX_HTML = `<!doctype html><html><head><title>Meterline</title><script>${THEME_SCRIPT}</script>
<script type="module" crossorigin src="/assets/app.js"></script></head><body></body></html>`;

/** The CSP's directives by name. */
function directives(response: Response): Map<string, string[]> {
  const header = response.headers.get('content-security-policy') ?? '';
  return new Map(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name = '', ...values]) => [name, values]),
  );
}

function expectCommonHeaders(response: Response): void {
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('x-frame-options')).toBe('DENY');
  expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  const csp = directives(response);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('script-src-attr')).toEqual(["'none'"]);
  expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
  expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
  // Over plain http, no HSTS: it would be ignored, and on localhost pin the browser to https.
  expect(response.headers.get('strict-transport-security')).toBeNull();
}

describe('security headers', () => {
  const dist = mkdtempSync(join(tmpdir(), 'meterline-web-'));
  let server: TestServer;
  beforeAll(async () => {
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX_HTML);
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log("app")');
    server = await startTestServer({ env: { WEB_DIST: dist, TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, { headers });

  it.each(['/platform/auth/csrf', '/platform/profile', '/platform/nothing-here'])(
    'are on the API answer %s, whatever its status',
    async (path) => {
      expectCommonHeaders(await get(path));
    },
  );

  it('keep every API answer out of caches: cards, addresses, secrets shown once', async () => {
    const owner = await server.signIn('owner@example.com');
    for (const path of [
      '/platform/organizations/acme-pro/payments',
      '/platform/organizations/acme-pro/customer',
      '/platform/organizations/acme-pro/billing/subscription',
      '/platform/profile',
    ]) {
      const answer = await owner.get(path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('cache-control'), path).toBe('no-store');
    }
    const created = await owner.post('/platform/organizations/acme-pro/webhooks', {
      url: 'http://127.0.0.1:9/hooks',
      events: ['invoice.paid'],
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store');
    // The web app's files are still cached by their own rules.
    expect((await get('/assets/app.js')).headers.get('cache-control')).not.toBe('no-store');
  });

  it('let the payment provider and the captcha load, frame and call out, and nobody else', async () => {
    const csp = directives(await get('/platform/auth/csrf'));
    expect(csp.get('script-src')).toEqual(
      expect.arrayContaining([
        "'self'",
        'https://js.stripe.com',
        'https://hcaptcha.com',
        'https://*.hcaptcha.com',
      ]),
    );
    expect(csp.get('frame-src')).toEqual(
      expect.arrayContaining(['https://js.stripe.com', 'https://hooks.stripe.com']),
    );
    expect(csp.get('connect-src')).toEqual(
      expect.arrayContaining(["'self'", 'https://api.stripe.com', 'https://*.hcaptcha.com']),
    );
    for (const sources of csp.values()) expect(sources).not.toContain('*');
  });

  it.each(['/', '/org/acme-pro/billing', '/pay/invoices/in_1?org=acme-pro'])(
    'are on the web app page %s, allowing its own inline script by hash only',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expectCommonHeaders(response);
      const hash = createHash('sha256').update(THEME_SCRIPT).digest('base64');
      expect(directives(response).get('script-src')).toContain(`'sha256-${hash}'`);
    },
  );

  it('are on the API reference page and its files', async () => {
    const page = await get('/platform/docs');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui');
    expectCommonHeaders(page);
    const script = await get('/platform/docs/static/swagger-initializer.js');
    expect(script.status).toBe(200);
    expectCommonHeaders(script);
  });

  it('add HSTS only to an answer that went over TLS (through a trusted proxy)', async () => {
    const secure = await get('/platform/auth/csrf', { 'x-forwarded-proto': 'https' });
    expect(secure.headers.get('strict-transport-security')).toBe(
      'max-age=31536000; includeSubDomains',
    );
    // Behind TLS the cookies are Secure, so they take the __Host- prefix.
    expect(secure.headers.getSetCookie()[0]).toMatch(/^__Host-ml_csrf=.*; Secure/i);
    const plain = await get('/platform/auth/csrf');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    expect(plain.headers.getSetCookie()[0]).toMatch(/^ml_csrf=/);
  });
});
