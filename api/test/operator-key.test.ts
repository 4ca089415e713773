import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { startTestServer, type TestServer } from './support/server.ts';

const KEY = 'test-metering-key-0123456789';

describe('the operator key', () => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ clock, env: { METERING_API_KEY: KEY } });
  });
  afterAll(() => server.close());
  // Each case sends from addresses of its own (any of 127.0.0.0/8 reaches the server), and the clock
  // jumps past the failure window after it.
  let lastAddress = 1;
  const nextAddress = () => `127.0.0.${++lastAddress}`;
  afterEach(() => clock.advance(60 * 60));

  let eventNumber = 0;
  const send = (from: string, authorization: string | undefined) =>
    server.client(from).request(
      'POST',
      '/internal/usage-events',
      {
        events: [
          {
            id: `operator-${++eventNumber}`,
            project_ref: 'acmepro1',
            metric: 'EGRESS',
            usage: 1,
            timestamp: Math.floor(clock.now().getTime() / 1000),
          },
        ],
      },
      authorization === undefined ? {} : { authorization },
      { csrf: false },
    );

  it('refuses a wrong key of any length, a missing one and a prefix of the right one', async () => {
    const from = nextAddress();
    for (const header of [
      undefined,
      'Bearer ',
      `Bearer ${KEY.slice(0, -1)}`,
      `Bearer ${KEY}x`,
      KEY,
      `bearer ${KEY}`,
      `Bearer ${'k'.repeat(10_000)}`,
    ]) {
      const response = await send(from, header);
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: 'A valid operator key is required' });
    }
    expect((await send(nextAddress(), `Bearer ${KEY}`)).status).toBe(200);
  });

  it('makes an address that keeps guessing wait, even with the right key, and no other', async () => {
    const guesser = nextAddress();
    for (let count = 0; count < 10; count++) {
      expect((await send(guesser, `Bearer guess-${count}-0123456789`)).status).toBe(401);
    }
    const limited = await send(guesser, `Bearer ${KEY}`);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect((await send(nextAddress(), `Bearer ${KEY}`)).status).toBe(200);
    clock.advance(retryAfter);
    expect((await send(guesser, `Bearer ${KEY}`)).status).toBe(200);
  });

  it('never counts the right key', async () => {
    const from = nextAddress();
    for (let count = 0; count < 15; count++) {
      expect((await send(from, `Bearer ${KEY}`)).status).toBe(200);
    }
  });
});
