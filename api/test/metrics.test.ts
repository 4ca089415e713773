import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../src/lib/close-grace.ts';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';
import { databaseOf, runCliOk } from './support/cli.ts';

// Prometheus metrics for operators (product-decisions §17), behind the operator key: this process's HTTP
// requests and ingestion, and the store's charges, closes and backlogs, which another process's billing
// job (`npm run billing -- run`) moves too.

const KEY = 'test-metering-key-0123456789';
const GRACE = DEFAULT_CLOSE_GRACE_MINUTES * 60_000;

/** `name{labels} value` lines of the text format, by series. */
function series(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

describe.each(testDatabases())('metrics (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, clock, env: { METERING_API_KEY: KEY } });
  });
  afterAll(() => server.close());

  async function scrape(): Promise<Map<string, number>> {
    const response = await fetch(`${server.url}/internal/metrics`, {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return series(await response.text());
  }

  it('answers only with the operator key', async () => {
    expect((await fetch(`${server.url}/internal/metrics`)).status).toBe(401);
    const owner = await server.signIn('owner@example.com');
    expect((await owner.get('/internal/metrics')).status).toBe(401);
  });

  it('counts requests by route and status, and the usage events stored', async () => {
    const owner = await server.signIn('owner@example.com');
    const before = await scrape();
    const route =
      'method="GET",route="/platform/organizations/:slug/billing/subscription",status="200"';
    const count = `meterline_http_request_duration_seconds_count{${route}}`;
    for (let n = 0; n < 3; n++) {
      expect(
        (await owner.get('/platform/organizations/acme-pro/billing/subscription')).status,
      ).toBe(200);
    }
    const event = {
      id: `metrics-${database}`,
      project_ref: 'acmepro1',
      metric: 'EGRESS',
      usage: 1_000,
      timestamp: Math.floor(clock.now().getTime() / 1000) - 60,
    };
    for (let n = 0; n < 2; n++) {
      const stored = await fetch(`${server.url}/internal/usage-events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
        body: JSON.stringify({ events: [event] }),
      });
      expect(stored.status).toBe(200);
    }
    const after = await scrape();
    expect((after.get(count) ?? 0) - (before.get(count) ?? 0)).toBe(3);
    const stored = 'meterline_usage_events_ingested_total{outcome="stored"}';
    const duplicate = 'meterline_usage_events_ingested_total{outcome="duplicate"}';
    expect((after.get(stored) ?? 0) - (before.get(stored) ?? 0)).toBe(1);
    expect((after.get(duplicate) ?? 0) - (before.get(duplicate) ?? 0)).toBe(1);
    // The store's figures: the demo world's charges and closed cycles, and the queues.
    expect(after.get('meterline_cycles_closed')).toBeGreaterThan(0);
    expect([...after.keys()].some((key) => key.startsWith('meterline_charges{'))).toBe(true);
    expect(after.has('meterline_backlog_pending{queue="email_outbox"}')).toBe(true);
    expect(
      after.has('meterline_backlog_oldest_pending_age_seconds{queue="webhook_deliveries"}'),
    ).toBe(true);
    expect(after.has('meterline_process_resident_memory_bytes')).toBe(true);
  });

  it.runIf(database === 'postgres')(
    "moves with another process's billing job: npm run billing -- run closes a cycle and charges it",
    async () => {
      const before = await scrape();
      const { current_period_end: end } = await server.database.db
        .selectFrom('subscriptions')
        .innerJoin('organizations', 'organizations.id', 'subscriptions.organization_id')
        .select('current_period_end')
        .where('organizations.slug', '=', 'acme-pro')
        .executeTakeFirstOrThrow();
      const at = new Date(end.getTime() + GRACE).toISOString();
      await runCliOk('billing', ['run', '--at', at], databaseOf(server));
      const after = await scrape();
      expect(
        (after.get('meterline_cycles_closed') ?? 0) - (before.get('meterline_cycles_closed') ?? 0),
      ).toBeGreaterThan(0);
      const charges = (values: Map<string, number>) =>
        [...values]
          .filter(([key]) => key.startsWith('meterline_charges{'))
          .reduce((sum, [, n]) => sum + n, 0);
      expect(charges(after)).toBeGreaterThan(charges(before));
    },
    60_000,
  );
});
