import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';

const KEY = 'test-metering-key-0123456789';

describe.each(testDatabases())('usage ingestion (%s)', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, env: { METERING_API_KEY: KEY } });
  });
  afterAll(() => server.close());

  const send = (body: unknown, key: string | null = KEY) =>
    fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify(body),
    });

  const day = Date.UTC(2030, 0, 15) / 1000;
  const egressOn = async (ref: string) => {
    const owner = await server.signIn('owner@example.com');
    const response = await owner.get<{ data: { date: string; metric: string; usage: number }[] }>(
      `/platform/organizations/acme-pro/usage/daily?start=2030-01-15&end=2030-01-15&projectRef=${ref}`,
    );
    return response.body.data.find((entry) => entry.metric === 'EGRESS')?.usage ?? 0;
  };

  it('needs the operator key', async () => {
    const event = {
      id: 'e-0',
      project_ref: 'acmepro1',
      metric: 'EGRESS',
      usage: 1,
      timestamp: day,
    };
    expect((await send({ events: [event] }, null)).status).toBe(401);
    expect((await send({ events: [event] }, 'wrong-key-wrong-key')).status).toBe(401);
    expect(await egressOn('acmepro1')).toBe(0);
  });

  it('stores a batch once, however often it is sent, and rolls it up per day', async () => {
    const events = [
      { id: 'e-1', project_ref: 'acmepro1', metric: 'EGRESS', usage: 1000, timestamp: day + 60 },
      { id: 'e-2', project_ref: 'acmepro1', metric: 'EGRESS', usage: 2500, timestamp: day + 7200 },
      { id: 'e-2', project_ref: 'acmepro1', metric: 'EGRESS', usage: 2500, timestamp: day + 7200 },
    ];
    const first = await send({ events });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ accepted: 2, duplicates: 1 });
    const again = await send({ events });
    expect(await again.json()).toEqual({ accepted: 0, duplicates: 3 });
    expect(await egressOn('acmepro1')).toBe(3500);
  });

  it('refuses a batch naming an unknown project, and writes none of it', async () => {
    const response = await send({
      events: [
        { id: 'e-3', project_ref: 'acmepro2', metric: 'EGRESS', usage: 10, timestamp: day },
        { id: 'e-4', project_ref: 'nosuchproject1', metric: 'EGRESS', usage: 10, timestamp: day },
      ],
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('nosuchproject1');
    expect(await egressOn('acmepro2')).toBe(0);
  });

  it('refuses bad events with 400 naming the field', async () => {
    const negative = await send({
      events: [{ id: 'e-5', project_ref: 'acmepro1', metric: 'EGRESS', usage: -1, timestamp: day }],
    });
    expect(negative.status).toBe(400);
    expect(((await negative.json()) as { message: string }).message).toContain('events.0.usage');
    const unknownMetric = await send({
      events: [
        { id: 'e-6', project_ref: 'acmepro1', metric: 'TELEPORTS', usage: 1, timestamp: day },
      ],
    });
    expect(unknownMetric.status).toBe(400);
    expect((await send({ events: [] })).status).toBe(400);
  });

  it('shows new usage in the upcoming invoice at once', async () => {
    const owner = await server.signIn('owner@example.com');
    const egress = async () => {
      const response = await owner.get<{ lines: { description: string; amount: number }[] }>(
        '/platform/organizations/payg-co/billing/invoices/upcoming',
      );
      return response.body.lines.find((line) => line.description === 'Egress')?.amount ?? 0;
    };
    const before = await egress();
    expect(await egress()).toBe(before);
    const now = Math.floor(Date.now() / 1000);
    const response = await send({
      events: [
        {
          id: 'big-egress',
          project_ref: 'paygco1',
          metric: 'EGRESS',
          usage: 100e9,
          timestamp: now,
        },
      ],
    });
    expect(response.status).toBe(200);
    // 100 GB beyond the quota at $0.09 per GB.
    expect(await egress()).toBe(before + 900);
  });
});
