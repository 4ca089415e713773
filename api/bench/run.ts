/**
 * npm run bench: a large organization (50 projects, 30 days of hourly usage, 100,000 past invoices) on the
 * real server in its own process, then the latency of the upcoming invoice and of an invoice page under
 * concurrent load, and the ingestion rate of usage events through the operator endpoint.
 *
 * BENCH_DATABASE_URL runs it against a PostgreSQL server instead of the embedded database; BENCH_PROFILE=<dir>
 * writes the server's CPU profile into that folder. `-- --replicas N` measures N processes on one PostgreSQL
 * instead (bench/scale.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { seedDemoWorld } from '../src/seed/demo-world.ts';
import { systemClock } from '../src/clock.ts';
import { runScaleBench, scaleOptions } from './scale.ts';

// `--replicas N` / `--close-cycles M`: several API and billing processes on one PostgreSQL (bench/scale.ts).
const scale = scaleOptions(process.argv.slice(2));
if (scale) {
  await runScaleBench(scale);
  process.exit();
}

const PROJECTS = 50;
const DAYS = 30;
const INVOICES = 100_000;
const CONCURRENCY = 8;
const REQUESTS = 2_000;
const BATCH = 5_000;
const KEY = 'bench-metering-key-0123456789';
const TARGETS = { upcomingP99: 25, invoicePageP99: 10, ingestionPerSecond: 50_000 };
/**
 * The billing page's reads at 50 connections against a bare Fastify "hello" in the same run: each at least a
 * tenth of hello's throughput, its p99 at most 12 times hello's (a tenth of the throughput is ten times the
 * latency at 50 connections).
 */
const WIDE = 50;
const WIDE_REQUESTS = 5_000;
const READ_BUDGET = { shareOfHello: 0.1, p99TimesHello: 12 };
/** The members of bench-co who read its billing page, each with a session of their own. */
const READERS = [
  { email: 'owner@example.com', role: 'owner' },
  { email: 'admin@example.com', role: 'administrator' },
  { email: 'developer@example.com', role: 'developer' },
  { email: 'readonly@example.com', role: 'read_only' },
] as const;

/**
 * The hourly usage the benchmark ingests: DAYS × 24 hours ending with the current whole hour (an event
 * may be stamped at most 10 minutes after it arrives and at most 60 days before), inside bench-co's
 * cycle, which starts at the first event's UTC midnight and lasts 31 days.
 */
function usageHours(now = Date.now()): { cycleStart: number; firstHour: number } {
  const firstHour = (Math.floor(now / 3_600_000) - (DAYS * 24 - 1)) * 3600;
  return { cycleStart: Math.floor(firstHour / 86_400) * 86_400, firstHour };
}

const databaseUrl = process.env.BENCH_DATABASE_URL;
const schema = databaseUrl ? `bench_${Date.now()}` : undefined;
const dataDir = mkdtempSync(join(tmpdir(), 'meterline-bench-'));
const port = 18_000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
const helloPort = port + 1000;

async function prepareStore(): Promise<void> {
  const database = await openDatabase({
    databaseUrl,
    dataDir: databaseUrl ? undefined : dataDir,
    schema,
  });
  await migrateToLatest(database.db, schema);
  await seedDemoWorld(database.db, systemClock);
  const db = database.db;
  const readers = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where(
      'email',
      'in',
      READERS.map((reader) => reader.email),
    )
    .execute();
  const start = new Date(usageHours().cycleStart * 1000);
  const org = await db
    .insertInto('organizations')
    .values({
      slug: 'bench-co',
      name: 'Bench Co',
      managed_by: 'platform',
      billing_email: 'billing@bench.example.com',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('memberships')
    .values(
      READERS.map((reader) => ({
        organization_id: org.id,
        user_id: readers.find((user) => user.email === reader.email)?.id ?? '',
        role: reader.role,
      })),
    )
    .execute();
  await db
    .insertInto('subscriptions')
    .values({
      organization_id: org.id,
      plan_id: 'pro',
      usage_billing_enabled: true,
      billing_via_partner: false,
      payment_method_type: 'card',
      billing_cycle_anchor: start,
      current_period_start: start,
      current_period_end: new Date(start.getTime() + 31 * 86_400_000),
    })
    .execute();
  const sizes = ['micro', 'small', 'medium', 'large'] as const;
  await db
    .insertInto('projects')
    .values(
      Array.from({ length: PROJECTS }, (_, index) => ({
        organization_id: org.id,
        ref: `benchco${index + 1}`,
        name: `Bench Project ${index + 1}`,
        status: 'ACTIVE_HEALTHY' as const,
        compute_size: sizes[index % sizes.length] ?? 'micro',
      })),
    )
    .execute();
  // 100,000 past invoices, one an hour going back (any length will do); the page query must not care how many there are.
  await sql`
    INSERT INTO invoices (id, organization_id, number, sequence, status, period_start, period_end, subtotal_cents,
      credit_applied_cents, amount_due_cents, amount_paid_cents, plan_id, finalized_at, paid_at)
    SELECT 'in_bench' || n, ${org.id}::uuid, 'BENCH-' || lpad(n::text, 6, '0'), ${INVOICES} + 1 - n, 'paid',
      ${start.toISOString()}::timestamptz - (n || ' hours')::interval,
      ${start.toISOString()}::timestamptz - ((n - 1) || ' hours')::interval,
      2500 + n % 5000, 0, 2500 + n % 5000, 2500 + n % 5000, 'pro',
      ${start.toISOString()}::timestamptz - ((n - 1) || ' hours')::interval,
      ${start.toISOString()}::timestamptz - ((n - 1) || ' hours')::interval
    FROM generate_series(1, ${INVOICES}) AS n
  `.execute(db);
  await database.close();
}

function startServer(): Promise<ChildProcess> {
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  // BENCH_PROFILE=<dir> writes the server's CPU profile there (open it in Chrome DevTools).
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      METERING_API_KEY: KEY,
      BILLING_JOB_INTERVAL_SECONDS: '0',
      WEB_DIST: '/nonexistent',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = async () => {
      try {
        const response = await fetch(`${base}/platform/auth/csrf`);
        if (response.ok) return resolve(child);
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) return reject(new Error('The server did not start'));
      setTimeout(() => void poll(), 200);
    };
    child.on('exit', (code) => reject(new Error(`The server exited with ${code}`)));
    void poll();
  });
}

async function ingest(): Promise<{ events: number; seconds: number }> {
  const start = usageHours().firstHour;
  const metrics = [
    'EGRESS',
    'DATABASE_SIZE',
    'MONTHLY_ACTIVE_USERS',
    'FUNCTION_INVOCATIONS',
  ] as const;
  const computeMetric = [
    'COMPUTE_HOURS_XS',
    'COMPUTE_HOURS_SM',
    'COMPUTE_HOURS_MD',
    'COMPUTE_HOURS_L',
  ];
  const batches: string[] = [];
  let batch: unknown[] = [];
  let total = 0;
  const flush = () => {
    if (batch.length === 0) return;
    batches.push(JSON.stringify({ events: batch }));
    batch = [];
  };
  for (let hour = 0; hour < DAYS * 24; hour++) {
    const timestamp = start + hour * 3600;
    for (let project = 1; project <= PROJECTS; project++) {
      const ref = `benchco${project}`;
      batch.push({
        id: `b:${ref}:c:${hour}`,
        project_ref: ref,
        metric: computeMetric[(project - 1) % 4],
        usage: 1,
        timestamp,
      });
      for (const metric of metrics) {
        batch.push({
          id: `b:${ref}:${metric}:${hour}`,
          project_ref: ref,
          metric,
          usage: 1000 + hour,
          timestamp,
        });
      }
      total += 1 + metrics.length;
      if (batch.length >= BATCH) flush();
    }
  }
  flush();
  const began = performance.now();
  let index = 0;
  // Two reporters at once, as a small fleet of metering agents would.
  await Promise.all(
    [0, 1].map(async () => {
      while (index < batches.length) {
        const body = batches[index++];
        const response = await fetch(`${base}/internal/usage-events`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` },
          body,
        });
        if (!response.ok)
          throw new Error(`ingestion answered ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      }
    }),
  );
  return { events: total, seconds: (performance.now() - began) / 1000 };
}

async function signIn(email = 'owner@example.com'): Promise<string> {
  const csrf = await fetch(`${base}/platform/auth/csrf`);
  const { token } = (await csrf.json()) as { token: string };
  const secret = csrf.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
  const response = await fetch(`${base}/platform/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie: secret },
    body: JSON.stringify({ email, password: 'billing-demo-2026' }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

// A light client (node:http over kept-alive sockets, like wrk) so that the client's own work, on the same
// two cores as the server, disturbs the measurement as little as it can.
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
const wideAgent = new Agent({ keepAlive: true, maxSockets: WIDE });

function get(url: string, cookie: string, via: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { agent: via, headers: { cookie, version: '2' } },
      (response) => {
        response.on('data', () => {});
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** CPU time (ms) the server process has used so far, from /proc (Linux); null elsewhere. */
function serverCpuMs(pid = server?.pid): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

interface LoadOptions {
  concurrency?: number;
  requests?: number;
  /** Another server than the product's (the baseline): its origin and process. */
  origin?: string;
  pid?: number | undefined;
}

async function load(
  path: string,
  /** One caller's session, or several: each request then goes as the next of them. */
  cookie: string | readonly string[],
  {
    concurrency = CONCURRENCY,
    requests = REQUESTS,
    origin = base,
    pid = server?.pid,
  }: LoadOptions = {},
): Promise<{ p50: number; p99: number; rps: number; cpuPerRequest: number | null }> {
  const via = concurrency > CONCURRENCY ? wideAgent : agent;
  const cpuBefore = serverCpuMs(pid);
  const latencies: number[] = [];
  const cookies = typeof cookie === 'string' ? [cookie] : cookie;
  let sent = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < requests) {
        const caller = cookies[sent % cookies.length] ?? '';
        sent++;
        const start = performance.now();
        const status = await get(`${origin}${path}`, caller, via);
        if (status !== 200) throw new Error(`${path} answered ${status}`);
        latencies.push(performance.now() - start);
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const cpuAfter = serverCpuMs(pid);
  const cpuPerRequest =
    cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / latencies.length;
  if (process.env.BENCH_DETAIL) {
    const slow = latencies.filter((latency) => latency > 10).length;
    console.log(
      `${path}: p90 ${at(0.9).toFixed(2)} p95 ${at(0.95).toFixed(2)} p99.9 ${at(0.999).toFixed(2)} max ${at(1).toFixed(2)} >10ms ${slow}`,
    );
  }
  return { p50: at(0.5), p99: at(0.99), rps: latencies.length / seconds, cpuPerRequest };
}

const verdict = (ok: boolean) => (ok ? 'meets target' : 'MISSES target');

/** The server's resident memory now (MB), from /proc (Linux); null elsewhere. */
function serverRssMb(): number | null {
  try {
    const status = readFileSync(`/proc/${server?.pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Downloads the 100,000-invoice CSV export, reading it as it streams, and samples the server's memory while
 * it does: an export that held every row would grow by about the size of the file.
 */
async function exportInvoices(cookie: string) {
  const before = serverRssMb();
  let peak = before ?? 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, serverRssMb() ?? 0);
  }, 20);
  const began = performance.now();
  const response = await fetch(`${base}/platform/organizations/bench-co/billing/invoices/export`, {
    headers: { cookie },
  });
  if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
  let bytes = 0;
  let rows = 0;
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    rows += decoder.decode(chunk, { stream: true }).split('\n').length - 1;
  }
  clearInterval(sampler);
  return {
    rows: rows - 1,
    mb: bytes / 1024 / 1024,
    seconds: (performance.now() - began) / 1000,
    before,
    peak,
  };
}

/** The baseline: bare Fastify in its own process (bench/hello.ts). */
async function startHello(): Promise<ChildProcess> {
  const file = fileURLToPath(new URL('./hello.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    env: { ...process.env, PORT: String(helloPort) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${helloPort}/hello`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('The hello server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The four reads of a billing page at 50 connections, as people make them: each request goes as the next of
 * bench-co's members, with a session of their own, and nothing is kept between requests. Each is a share of
 * what a bare Fastify "hello" serves on this machine in the same run, with its p99. Each path is warmed up first.
 */
async function readsAtFifty(sessions: readonly string[]): Promise<string> {
  const hello = await startHello();
  try {
    const options = { concurrency: WIDE, requests: WIDE_REQUESTS };
    const helloOptions = { ...options, origin: `http://127.0.0.1:${helloPort}`, pid: hello.pid };
    await load('/hello', '', helloOptions);
    const baseline = await load('/hello', '', helloOptions);
    const org = '/platform/organizations/bench-co';
    const reads: [string, string][] = [
      ['upcoming invoice', `${org}/billing/invoices/upcoming`],
      ['invoice page', `${org}/billing/invoices?offset=0&limit=5`],
      ['subscription', `${org}/billing/subscription`],
      ['organization', org],
    ];
    const lines = [
      `At ${WIDE} connections, ${WIDE_REQUESTS.toLocaleString('en-US')} requests each, as ${sessions.length} members in turn (budget: at least ${READ_BUDGET.shareOfHello * 100} % of hello, p99 at most ${READ_BUDGET.p99TimesHello} × hello's = ${(READ_BUDGET.p99TimesHello * baseline.p99).toFixed(1)} ms):`,
      `  bare Fastify hello   ${Math.round(baseline.rps)} req/s  p99 ${baseline.p99.toFixed(2)} ms`,
    ];
    // BENCH_READS=subscription,organization measures only those (for a profile of one read).
    const only = process.env.BENCH_READS?.split(',');
    for (const [name, path] of reads) {
      if (only && !only.some((word) => name.startsWith(word))) continue;
      await load(path, sessions, options);
      const measured = await load(path, sessions, options);
      const share = measured.rps / baseline.rps;
      const ok =
        share >= READ_BUDGET.shareOfHello &&
        measured.p99 <= READ_BUDGET.p99TimesHello * baseline.p99;
      lines.push(
        `  ${name.padEnd(19)} ${Math.round(measured.rps)} req/s = ${(share * 100).toFixed(1)} % of hello  p99 ${measured.p99.toFixed(2)} ms  ${measured.cpuPerRequest === null ? '' : `server CPU ${measured.cpuPerRequest.toFixed(3)} ms/req  `}(${ok ? 'within budget' : 'OVER budget'})`,
      );
    }
    return lines.join('\n');
  } finally {
    const exited = new Promise((resolve) => hello.once('exit', resolve));
    hello.kill('SIGTERM');
    await exited;
  }
}

async function fullBench(
  sessions: readonly string[],
  ingestion: { events: number; seconds: number },
) {
  const cookie = sessions[0] ?? '';
  const perSecond = ingestion.events / ingestion.seconds;
  // Warm up each path before measuring it.
  await load('/platform/organizations/bench-co/billing/invoices/upcoming', cookie);
  if (process.env.BENCH_DETAIL) await load('/platform/auth/csrf', cookie);
  const upcoming = await load('/platform/organizations/bench-co/billing/invoices/upcoming', cookie);
  await load('/platform/organizations/bench-co/billing/invoices?offset=50000&limit=5', cookie);
  const page = await load(
    '/platform/organizations/bench-co/billing/invoices?offset=99990&limit=5',
    cookie,
  );
  const first = await load(
    '/platform/organizations/bench-co/billing/invoices?offset=0&limit=5',
    cookie,
  );
  const exported = await exportInvoices(cookie);
  const wide = await readsAtFifty(sessions);
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  // Server CPU per request: the service time that concurrent clients queue behind.
  const cpu = ({ cpuPerRequest }: { cpuPerRequest: number | null }) =>
    cpuPerRequest === null ? '' : `server CPU ${cpuPerRequest.toFixed(2)} ms/req`;
  console.log(`
Meterline benchmark: ${PROJECTS} projects, ${DAYS} days of hourly usage, ${INVOICES.toLocaleString('en-US')} past invoices,
${CONCURRENCY} concurrent clients, ${REQUESTS} requests per measurement, server in its own process;
every read computed at its request (nothing is kept between requests).

ingestion            ${ingestion.events.toLocaleString('en-US')} events in ${ingestion.seconds.toFixed(2)} s = ${Math.round(perSecond).toLocaleString('en-US')} events/s  (target > ${TARGETS.ingestionPerSecond.toLocaleString('en-US')}: ${verdict(perSecond > TARGETS.ingestionPerSecond)})
upcoming invoice     p50 ${ms(upcoming.p50)}  p99 ${ms(upcoming.p99)}  ${Math.round(upcoming.rps)} req/s  ${cpu(upcoming)}  (target p99 < ${TARGETS.upcomingP99} ms: ${verdict(upcoming.p99 < TARGETS.upcomingP99)})
invoice page (first) p50 ${ms(first.p50)}  p99 ${ms(first.p99)}  ${Math.round(first.rps)} req/s  ${cpu(first)}  (target p99 < ${TARGETS.invoicePageP99} ms: ${verdict(first.p99 < TARGETS.invoicePageP99)})
invoice page (last)  p50 ${ms(page.p50)}  p99 ${ms(page.p99)}  ${Math.round(page.rps)} req/s  ${cpu(page)}  (target p99 < ${TARGETS.invoicePageP99} ms: ${verdict(page.p99 < TARGETS.invoicePageP99)})
${wide}
invoices CSV export  ${exported.rows.toLocaleString('en-US')} rows, ${exported.mb.toFixed(1)} MB in ${exported.seconds.toFixed(2)} s; server memory ${exported.before === null ? 'unknown' : `${exported.before.toFixed(0)} MB before, ${exported.peak.toFixed(0)} MB at most while streaming (+${(exported.peak - exported.before).toFixed(0)} MB)`}
`);
}

let server: ChildProcess | undefined;
try {
  console.log(`Preparing the store (${databaseUrl ? 'PostgreSQL server' : 'embedded database'})…`);
  await prepareStore();
  server = await startServer();
  const ingestion = await ingest();
  const sessions: string[] = [];
  for (const reader of READERS) sessions.push(await signIn(reader.email));
  if (process.env.BENCH_ONLY === 'reads') {
    // Only the reads at 50 connections (with BENCH_PROFILE, a profile of them alone).
    console.log(`\n${await readsAtFifty(sessions)}`);
  } else await fullBench(sessions, ingestion);
} finally {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
  if (databaseUrl && schema) {
    const cleanup = await openDatabase({ databaseUrl });
    await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(cleanup.db);
    await cleanup.close();
  }
}
