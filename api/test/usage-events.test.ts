import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cycleContaining } from '@meterline/domain';
import { fixedClock } from '../src/clock.ts';
import { insertUsageEvents } from '../src/repositories/usage.ts';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';
import { databaseOf, runCli } from './support/cli.ts';

const KEY = 'test-metering-key-0123456789';
const DAY = 86_400;

describe.each(testDatabases())('usage ingestion (%s)', (database) => {
  // The server's clock: events may be stamped at most 60 days before it and 10 minutes after, so the
  // batches below (15 January to 24 February 2030) arrive on 1 March 2030.
  const clock = fixedClock(new Date('2030-03-01T00:00:00Z'));
  const now = () => Math.floor(clock.now().getTime() / 1000);
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database, clock, env: { METERING_API_KEY: KEY } });
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
  /** The project's egress on 15 January 2030: the demo world's, seeded up to 1 March, and these tests'. */
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
    const before = await egressOn('acmepro1');
    expect((await send({ events: [event] }, null)).status).toBe(401);
    expect((await send({ events: [event] }, 'wrong-key-wrong-key')).status).toBe(401);
    expect(await egressOn('acmepro1')).toBe(before);
  });

  it('stores a batch once, however often it is sent, and rolls it up per day', async () => {
    const events = [
      { id: 'e-1', project_ref: 'acmepro1', metric: 'EGRESS', usage: 1000, timestamp: day + 60 },
      { id: 'e-2', project_ref: 'acmepro1', metric: 'EGRESS', usage: 2500, timestamp: day + 7200 },
      { id: 'e-2', project_ref: 'acmepro1', metric: 'EGRESS', usage: 2500, timestamp: day + 7200 },
    ];
    const before = await egressOn('acmepro1');
    const first = await send({ events });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ accepted: 2, duplicates: 1 });
    const again = await send({ events });
    expect(await again.json()).toEqual({ accepted: 0, duplicates: 3 });
    expect(await egressOn('acmepro1')).toBe(before + 3500);
  });

  it('stores the new events of a batch that repeats stored ones, and rolls up only those', async () => {
    const event = (id: string, usage: number) => ({
      id,
      project_ref: 'acmepro3',
      metric: 'EGRESS',
      usage,
      timestamp: day + 600,
    });
    const before = await egressOn('acmepro3');
    expect(await (await send({ events: [event('r-1', 100)] })).json()).toEqual({
      accepted: 1,
      duplicates: 0,
    });
    const mixed = await send({ events: [event('r-2', 20), event('r-1', 100), event('r-3', 3)] });
    expect(await mixed.json()).toEqual({ accepted: 2, duplicates: 1 });
    expect(await egressOn('acmepro3')).toBe(before + 123);
  });

  it("skips stored events inside a caller's transaction too, without ending it", async () => {
    const db = server.database.db;
    const project = await db
      .selectFrom('projects')
      .select(['id', 'organization_id'])
      .where('ref', '=', 'acmepro3')
      .executeTakeFirstOrThrow();
    const event = (eventId: string) => ({
      eventId,
      organizationId: project.organization_id,
      projectId: project.id,
      metric: 'EGRESS',
      resource: '',
      usage: 5,
      timestamp: day + 1800,
      cycleStart: null,
    });
    const before = await egressOn('acmepro3');
    const accepted = await db.transaction().execute(async (trx) => {
      const first = await insertUsageEvents(trx, [event('t-1')]);
      const second = await insertUsageEvents(trx, [event('t-1'), event('t-2')]);
      return first + second;
    });
    expect(accepted).toBe(2);
    expect(await egressOn('acmepro3')).toBe(before + 10);
  });

  it('counts each event once when batches sharing new events arrive at the same time', async () => {
    const batch = (from: number) =>
      Array.from({ length: 400 }, (_, index) => ({
        id: `c-${from + index}`,
        project_ref: 'acmepro3',
        metric: 'EGRESS',
        usage: 1,
        timestamp: day + 1200,
      }));
    const before = await egressOn('acmepro3');
    const answers = await Promise.all(
      [0, 200, 100, 300].map(async (from) => {
        const response = await send({ events: batch(from) });
        expect(response.status).toBe(200);
        return (await response.json()) as { accepted: number; duplicates: number };
      }),
    );
    // Events c-0 to c-699: each accepted by exactly one of the batches.
    expect(answers.reduce((sum, answer) => sum + answer.accepted, 0)).toBe(700);
    expect(answers.reduce((sum, answer) => sum + answer.duplicates, 0)).toBe(900);
    expect(await egressOn('acmepro3')).toBe(before + 700);
  });

  it('stores each event of a mixed batch with its own organization, project, metric, time and cycle', async () => {
    const db = server.database.db;
    const later = day + 40 * 86_400;
    const events = [
      { id: 'm-1', project_ref: 'acmepro1', metric: 'EGRESS', usage: 7, timestamp: day },
      {
        id: 'm-2',
        project_ref: 'paygco1',
        metric: 'COMPUTE_HOURS_SM',
        usage: 1,
        timestamp: day + 3600,
        resource: 'read_replica',
      },
      {
        id: 'm-3',
        project_ref: 'acmepro2',
        metric: 'COMPUTE_HOURS_BRANCH',
        usage: 2,
        timestamp: later,
      },
      // payg-co's subscription began on 17 February (12 days before the demo world was seeded).
      { id: 'm-4', project_ref: 'paygco1', metric: 'EGRESS', usage: 0.5, timestamp: day },
      {
        id: 'm-5',
        project_ref: 'paygco1',
        metric: 'COMPUTE_HOURS_XS',
        usage: 1,
        timestamp: later + 1,
      },
      // Back and forth between the two cycles, for one project and metric.
      { id: 'm-6', project_ref: 'acmepro1', metric: 'EGRESS', usage: 3, timestamp: day + 120 },
      { id: 'm-7', project_ref: 'acmepro1', metric: 'EGRESS', usage: 4, timestamp: later + 120 },
      { id: 'm-8', project_ref: 'acmepro1', metric: 'EGRESS', usage: 5, timestamp: day + 180 },
    ];
    expect(await (await send({ events })).json()).toEqual({ accepted: 8, duplicates: 0 });

    const projects = await db
      .selectFrom('projects')
      .innerJoin('subscriptions', 'subscriptions.organization_id', 'projects.organization_id')
      .select(['projects.ref', 'projects.id', 'projects.organization_id', 'billing_cycle_anchor'])
      .where('projects.ref', 'in', ['acmepro1', 'acmepro2', 'paygco1'])
      .execute();
    // What the server makes of each event's resource: compute runs on the primary unless told otherwise.
    const resources = ['', 'read_replica', 'branch', '', 'primary', '', '', ''];
    const expected = events.map((event, index) => {
      const project = projects.find((row) => row.ref === event.project_ref);
      if (!project) throw new Error(`no project ${event.project_ref}`);
      const anchor = project.billing_cycle_anchor.getTime() / 1000;
      return {
        event_id: event.id,
        organization_id: project.organization_id,
        project_id: project.id,
        metric: event.metric,
        resource: resources[index],
        usage: event.usage,
        occurred_at: new Date(event.timestamp * 1000).toISOString(),
        cycle_start:
          event.timestamp < anchor
            ? null
            : new Date(cycleContaining(anchor, event.timestamp).start * 1000).toISOString(),
      };
    });
    const rows = await db
      .selectFrom('usage_events')
      .select([
        'event_id',
        'organization_id',
        'project_id',
        'metric',
        'resource',
        'usage',
        'occurred_at',
        'cycle_start',
      ])
      .where(
        'event_id',
        'in',
        events.map((event) => event.id),
      )
      .orderBy('event_id')
      .execute();
    expect(
      rows.map((row) => ({
        ...row,
        usage: Number(row.usage),
        occurred_at: row.occurred_at.toISOString(),
        cycle_start: row.cycle_start?.toISOString() ?? null,
      })),
    ).toEqual(expected);
    // The batch spans two billing cycles, and payg-co's event of 15 January is from before its
    // subscription began.
    const [first, , third, fourth] = expected;
    expect(fourth?.cycle_start).toBeNull();
    expect(first?.cycle_start).not.toBe(third?.cycle_start);
  });

  it('refuses a batch naming an unknown project, and writes none of it', async () => {
    const before = await egressOn('acmepro2');
    const response = await send({
      events: [
        { id: 'e-3', project_ref: 'acmepro2', metric: 'EGRESS', usage: 10, timestamp: day },
        { id: 'e-4', project_ref: 'nosuchproject1', metric: 'EGRESS', usage: 10, timestamp: day },
      ],
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toContain('nosuchproject1');
    expect(await egressOn('acmepro2')).toBe(before);
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
    const farFuture = await send({
      events: [{ id: 'e-7', project_ref: 'acmepro1', metric: 'EGRESS', usage: 1, timestamp: 1e15 }],
    });
    expect(farFuture.status).toBe(400);
    expect(((await farFuture.json()) as { message: string }).message).toContain(
      'events.0.timestamp',
    );
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
    const response = await send({
      events: [
        {
          id: 'big-egress',
          project_ref: 'paygco1',
          metric: 'EGRESS',
          usage: 100e9,
          timestamp: now(),
        },
      ],
    });
    expect(response.status).toBe(200);
    // 100 GB beyond the quota at $0.09 per GB.
    expect(await egress()).toBe(before + 900);
  });

  it('keeps each roll-up equal to the stored events it sums, decimals exactly', async () => {
    // idle-co's projects report nothing in the demo world: its day holds these events alone.
    const events = [0.1, 0.2, 1e-7, 123456789.123, 7].map((usage, index) => ({
      id: `d-${index}`,
      project_ref: 'idleco1',
      metric: 'DATABASE_SIZE',
      usage,
      timestamp: day + 43_200 + 3_000 * index,
    }));
    // Whole numbers whose sum is past what a double holds exactly.
    const large = [9_007_199_254_740_991, 9_007_199_254_740_991, 5].map((usage, index) => ({
      id: `l-${index}`,
      project_ref: 'idleco1',
      metric: 'MONTHLY_ACTIVE_USERS',
      usage,
      timestamp: day + 86_399,
    }));
    expect(await (await send({ events: [...events, ...large] })).json()).toEqual({
      accepted: 8,
      duplicates: 0,
    });
    const db = server.database.db;
    const daily = await sql<{ usage_sum: string; usage_max: string; samples: number }>`
      SELECT usage_sum::text, usage_max::text, samples FROM usage_daily
      JOIN projects ON projects.id = usage_daily.project_id
      WHERE projects.ref = 'idleco1' AND metric = 'DATABASE_SIZE' AND day = '2030-01-15'
    `.execute(db);
    expect(daily.rows).toEqual([
      { usage_sum: '123456796.4230001', usage_max: '123456789.123', samples: 5 },
    ]);
    const users = await sql<{ usage_sum: string }>`
      SELECT usage_sum::text FROM usage_daily JOIN projects ON projects.id = usage_daily.project_id
      WHERE projects.ref = 'idleco1' AND metric = 'MONTHLY_ACTIVE_USERS' AND day = '2030-01-15'
    `.execute(db);
    expect(users.rows).toEqual([{ usage_sum: '18014398509481987' }]);
    // Every roll-up row, seeded or sent by these tests, against the raw events summed in the database.
    for (const [table, period] of [
      ['usage_daily', sql`(occurred_at AT TIME ZONE 'UTC')::date`],
      ['usage_cycle', sql`cycle_start`],
    ] as const) {
      const periodColumn = table === 'usage_daily' ? sql`day` : sql`cycle_start`;
      const { rows } = await sql<{ mismatches: number; rollups: number }>`
        WITH summed AS (
          SELECT organization_id, ${period} AS period, metric, project_id, resource,
                 sum(usage) AS usage_sum, max(usage) AS usage_max, count(*)::int AS samples
          FROM usage_events WHERE ${period} IS NOT NULL
          GROUP BY 1, 2, 3, 4, 5
        ),
        rollups AS (
          SELECT organization_id, ${periodColumn} AS period, metric, project_id, resource,
                 usage_sum, usage_max, samples
          FROM ${sql.table(table)}
        )
        SELECT (SELECT count(*)::int FROM (
                  (SELECT * FROM summed EXCEPT ALL SELECT * FROM rollups)
                  UNION ALL
                  (SELECT * FROM rollups EXCEPT ALL SELECT * FROM summed)
                ) AS differences) AS mismatches,
               (SELECT count(*)::int FROM rollups) AS rollups
      `.execute(db);
      expect(rows).toEqual([{ mismatches: 0, rollups: expect.any(Number) as number }]);
      expect(rows[0]?.rollups).toBeGreaterThan(100);
    }
  });

  describe('event times (decision 005): at most 60 days before arrival, at most 10 minutes after', () => {
    const egress = (id: string, timestamp: number) => ({
      id,
      project_ref: 'acmepro2',
      metric: 'EGRESS',
      usage: 1,
      timestamp,
    });
    const stored = async (ids: readonly string[]) =>
      (
        await server.database.db
          .selectFrom('usage_events')
          .select('event_id')
          .where('event_id', 'in', [...ids])
          .execute()
      ).map((row) => row.event_id);

    it('refuses a batch holding an event outside the bounds, whole, with 400 naming each such event', async () => {
      const batch = [
        egress('bounds-fine', now() - 3600),
        egress('bounds-old', now() - 60 * DAY - 1),
        egress('bounds-fine-2', now()),
        egress('bounds-ahead', now() + 601),
      ];
      const response = await send({ events: batch });
      expect(response.status).toBe(400);
      const { message } = (await response.json()) as { message: string };
      expect(message).toBe(
        'events[1] (id bounds-old): timestamp 2029-12-30T23:59:59Z is more than 60 days before now ' +
          '(2030-03-01T00:00:00Z); events[3] (id bounds-ahead): timestamp 2030-03-01T00:10:01Z is ' +
          'more than 10 minutes after now (2030-03-01T00:00:00Z). An event may be stamped at most ' +
          '60 days before the batch arrives and at most 10 minutes after: a batch holding any other ' +
          'is refused whole (400, naming such events) and nothing of it is stored.',
      );
      // Nothing of the batch was written, its events within the bounds neither.
      expect(await stored(batch.map((event) => event.id))).toEqual([]);
    });

    it('keeps an event stamped exactly 60 days before or 10 minutes after, by the server clock', async () => {
      const batch = [
        egress('bounds-oldest', now() - 60 * DAY),
        egress('bounds-latest', now() + 600),
      ];
      const response = await send({ events: batch });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ accepted: 2, duplicates: 0 });
      // A second later by the server's clock, the oldest is out of bounds: the same batch is refused.
      clock.advance(1);
      try {
        const again = await send({ events: batch });
        expect(again.status).toBe(400);
        expect(((await again.json()) as { message: string }).message).toMatch(
          /^events\[0\] \(id bounds-oldest\): timestamp .* is more than 60 days before now/,
        );
      } finally {
        clock.advance(-1);
      }
    });

    it('states the bounds in the API document', async () => {
      const document = (await (await fetch(`${server.url}/platform/openapi.json`)).json()) as {
        paths: Record<string, Record<string, { description?: string }>>;
        components: { schemas: Record<string, unknown> };
      };
      const operation = document.paths['/internal/usage-events']?.post;
      expect(operation?.description).toContain(
        'An event may be stamped at most 60 days before the batch arrives and at most 10 minutes after',
      );
      expect(JSON.stringify(document.components.schemas)).toContain(
        'When the usage happened, unix seconds: at most 60 days before the batch arrives and at most 10 minutes after',
      );
    });

    it.runIf(database === 'postgres')(
      "bounds the operator CLI's ingest by the moment it ingests at, writing nothing of a refused batch",
      async () => {
        const file = join(mkdtempSync(join(tmpdir(), 'meterline-ingest-')), 'events.json');
        const ingest = (events: unknown[], at: string) => {
          writeFileSync(file, JSON.stringify({ events }));
          return runCli('billing', ['ingest', '--file', file, '--at', at], databaseOf(server));
        };
        const at = '2030-03-01T00:00:00Z';
        const batch = [egress('cli-fine', now() - DAY), egress('cli-old', now() - 61 * DAY)];
        const refused = await ingest(batch, at);
        expect(refused.code).toBe(2);
        expect(refused.output).toContain(
          'events[1] (id cli-old): timestamp 2029-12-30T00:00:00Z is more than 60 days before now (2030-03-01T00:00:00Z)',
        );
        expect(await stored(['cli-fine', 'cli-old'])).toEqual([]);
        const accepted = await ingest(batch.slice(0, 1), at);
        expect(accepted.code).toBe(0);
        expect(JSON.parse(accepted.output)).toMatchObject({ accepted: 1, duplicates: 0 });
        expect(await stored(['cli-fine'])).toEqual(['cli-fine']);
      },
    );
  });
});
