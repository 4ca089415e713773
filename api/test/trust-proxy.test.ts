import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from './support/server.ts';

// Which address a request comes from is decided before any SQL, so the embedded database is enough here.
// The limit that shows it is a per-address one: 20 failed sign-ins an address, over all emails.
const FAILURES_PER_ADDRESS = 20;

describe('behind a proxy named in TRUST_PROXY', () => {
  let server: TestServer;
  let proxy: TestClient;

  beforeAll(async () => {
    // The test client connects from 127.0.0.1: it plays the proxy.
    server = await startTestServer({ env: { TRUST_PROXY: '127.0.0.1' } });
    proxy = server.client();
  });
  afterAll(() => server.close());

  /** A failed sign-in (a new email each time, so only the per-address count fills), with this X-Forwarded-For. */
  let emailNumber = 0;
  const failedSignInThroughProxy = (forwardedFor: string) =>
    proxy.post(
      '/platform/auth/sign-in',
      { email: `nobody-${++emailNumber}@example.com`, password: 'wrong' },
      { 'x-forwarded-for': forwardedFor },
    );

  it('sees a client that forges X-Forwarded-For as the last hop, so it cannot escape a per-address limit', async () => {
    // Each request claims another first address; the proxy appended the client's real one, 5.6.7.8.
    for (let attempt = 0; attempt < FAILURES_PER_ADDRESS; attempt++) {
      const response = await failedSignInThroughProxy(`1.2.3.${attempt}, 5.6.7.8`);
      expect(response.status, `request ${attempt + 1}`).toBe(401);
    }
    const limited = await failedSignInThroughProxy('9.9.9.9, 5.6.7.8');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client behind the same proxy has its own count.
    expect((await failedSignInThroughProxy('1.2.3.4, 5.6.7.9')).status).toBe(401);
  });

  it('believes no X-Forwarded-For from a client that reaches the server directly', async () => {
    const csrf = await proxy.csrf();
    const direct = async (forwardedFor: string) => {
      const response = await server.app.inject({
        method: 'POST',
        url: '/platform/auth/sign-in',
        remoteAddress: '203.0.113.9',
        headers: {
          cookie: `ml_csrf=${proxy.cookie('ml_csrf')}`,
          'x-csrf-token': csrf,
          'x-forwarded-for': forwardedFor,
        },
        payload: { email: `nobody-${++emailNumber}@example.com`, password: 'wrong' },
      });
      return response.statusCode;
    };
    for (let attempt = 0; attempt < FAILURES_PER_ADDRESS; attempt++) {
      expect(await direct(`1.2.3.${attempt}, 5.6.7.${attempt}`), `request ${attempt + 1}`).toBe(
        401,
      );
    }
    expect(await direct('9.9.9.9, 8.8.8.8')).toBe(429);
  });
});
