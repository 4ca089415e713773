import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestClient, type TestServer } from './support/server.ts';

// Which address a request comes from is decided before any SQL, so the embedded database is enough here.
describe('behind a proxy named in TRUST_PROXY', () => {
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    // The test client connects from 127.0.0.1: it plays the proxy.
    server = await startTestServer({ env: { TRUST_PROXY: '127.0.0.1' } });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  /** A captcha token (30 a minute per address), asked for with this X-Forwarded-For. */
  const captchaThroughProxy = (forwardedFor: string) =>
    owner.post('/platform/captcha', undefined, { 'x-forwarded-for': forwardedFor });

  it('sees a client that forges X-Forwarded-For as the last hop, so it cannot escape a per-address limit', async () => {
    // Each request claims another first address; the proxy appended the client's real one, 5.6.7.8.
    for (let attempt = 0; attempt < 30; attempt++) {
      const response = await captchaThroughProxy(`1.2.3.${attempt}, 5.6.7.8`);
      expect(response.status, `request ${attempt + 1}`).toBe(200);
    }
    const limited = await captchaThroughProxy('9.9.9.9, 5.6.7.8');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client behind the same proxy has its own count.
    expect((await captchaThroughProxy('1.2.3.4, 5.6.7.9')).status).toBe(200);
  });

  it('believes no X-Forwarded-For from a client that reaches the server directly', async () => {
    const direct = async (forwardedFor: string) => {
      const response = await server.app.inject({
        method: 'POST',
        url: '/platform/captcha',
        remoteAddress: '203.0.113.9',
        headers: {
          cookie: `ml_session=${owner.cookie('ml_session')}; ml_csrf=${owner.cookie('ml_csrf')}`,
          'x-csrf-token': await owner.csrf(),
          'x-forwarded-for': forwardedFor,
        },
      });
      return response.statusCode;
    };
    for (let attempt = 0; attempt < 30; attempt++) {
      expect(await direct(`1.2.3.${attempt}, 5.6.7.${attempt}`), `request ${attempt + 1}`).toBe(
        200,
      );
    }
    expect(await direct('9.9.9.9, 8.8.8.8')).toBe(429);
  });
});
