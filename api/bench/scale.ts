/**
 * `npm run bench -- --replicas N [--close-cycles M]`: N API processes on one PostgreSQL
 * schema.
 *
 * 1. Reads: the four reads of a billing page (upcoming invoice, invoice page, subscription, organization),
 *    in rotation, at 50 connections: first all of them on one process, then spread round-robin over the N
 *    (a kept-alive agent per process, as a load balancer would hold them), twice each, alternating.
 * 2. The billing job at scale: M organizations (10,000 unless --close-cycles says otherwise; 0 skips it)
 *    whose cycle has ended, closed by N billing-job processes (bench/billing-runner.ts: a scheduler tick
 *    each) loaded first and then started at the same moment, timed until every process has finished; then checked for exactly once (one
 *    closed cycle per organization, one invoice per organization and period, no invoice charged twice,
 *    every charge settled and agreeing with the provider's records).
 *
 * `--close-cycles M` without --replicas runs only the billing job, with two processes. PostgreSQL only:
 * BENCH_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, in a schema of its own dropped at the
 * end. BENCH_PROFILE=<dir> writes each billing process's CPU profile there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { systemClock } from '../src/clock.ts';
import { migrateToLatest, openDatabase, type Db } from '../src/db/database.ts';
import { seedDemoWorld } from '../src/seed/demo-world.ts';
import { ingestUsageEvents } from '../src/services/usage/ingest-usage-events.ts';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const CONNECTIONS = 50;
const READ_REQUESTS = 10_000;
const CLOSE_BUDGET_SECONDS = 60;
/** The demo world's Pro organization, whose owner the bench signs in as. */
const ORG = '/platform/organizations/acme-pro';
const READS = [
  `${ORG}/billing/invoices/upcoming`,
  `${ORG}/billing/invoices?offset=0&limit=5`,
  `${ORG}/billing/subscription`,
  ORG,
];
/** A close happens once the cycle ended this long ago (the default grace for late usage is 60 minutes). */
const ENDED_HOURS_AGO = 3;

export interface ScaleOptions {
  replicas: number;
  /** Organizations whose cycles the billing job closes; 0 skips that part. */
  closeCycles: number;
  reads: boolean;
}

/** The scale bench's options when the command line asks for it; null runs the usual bench. */
export function scaleOptions(argv: string[]): ScaleOptions | null {
  const { values } = parseArgs({
    args: argv,
    options: { replicas: { type: 'string' }, 'close-cycles': { type: 'string' } },
  });
  if (values.replicas === undefined && values['close-cycles'] === undefined) return null;
  const whole = (name: string, value: string, min: number, max: number) => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new Error(`--${name}: "${value}" is not a whole number from ${min} to ${max}`);
    }
    return Number(value);
  };
  return {
    replicas: values.replicas === undefined ? 2 : whole('replicas', values.replicas, 1, 16),
    closeCycles:
      values['close-cycles'] === undefined
        ? 10_000
        : whole('close-cycles', values['close-cycles'], 0, 1_000_000),
    reads: values.replicas !== undefined,
  };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const count = (value: number) => value.toLocaleString('en-US');

/** CPU time (ms) a process has used so far, from /proc (Linux); null elsewhere. */
function cpuMs(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

interface Replica {
  child: ChildProcess;
  origin: string;
  agent: Agent;
}

async function startReplica(
  index: number,
  port: number,
  databaseUrl: string,
  schema: string,
): Promise<Replica> {
  const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      // The store is seeded already (once, by the bench): each process finds it so and keeps it.
      SEED_DEMO: 'auto',
      BILLING_JOB_INTERVAL_SECONDS: '0',
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const origin = `http://127.0.0.1:${port}`;
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`Replica ${index + 1} exited with ${code}`))),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const listening = await Promise.race([
      fetch(`${origin}/platform/auth/csrf`).then(
        (response) => response.ok,
        () => false,
      ),
      exited,
    ]);
    if (listening) break;
    if (Date.now() > deadline) throw new Error(`Replica ${index + 1} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  exited.catch(() => undefined);
  return { child, origin, agent: new Agent({ keepAlive: true, maxSockets: CONNECTIONS }) };
}

async function stopReplica({ child, agent }: Replica): Promise<void> {
  agent.destroy();
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function signIn(origin: string): Promise<string> {
  const csrf = await fetch(`${origin}/platform/auth/csrf`);
  const { token } = (await csrf.json()) as { token: string };
  const secret = csrf.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
  const response = await fetch(`${origin}/platform/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': token, cookie: secret },
    body: JSON.stringify({ email: 'owner@example.com', password: 'billing-demo-2026' }),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

function get(replica: Replica, path: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${replica.origin}${path}`,
      { agent: replica.agent, headers: { cookie, version: '2' } },
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

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** CPU the API processes and this client used per request (ms); null where /proc is not there. */
  serverCpu: number | null;
  clientCpu: number;
}

/** The reads in rotation at 50 connections, connection i on replica i mod n. */
async function readLoad(replicas: Replica[], cookie: string, requests: number) {
  const cpuBefore = replicas.map((replica) => cpuMs(replica.child.pid));
  const clientBefore = process.cpuUsage();
  const latencies: number[] = [];
  let sent = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async (_, connection) => {
      const replica = replicas[connection % replicas.length];
      if (!replica) throw new Error('no replica');
      while (sent < requests) {
        const path = READS[sent++ % READS.length] ?? ORG;
        const start = performance.now();
        const status = await get(replica, path, cookie);
        if (status !== 200) throw new Error(`${path} answered ${status}`);
        latencies.push(performance.now() - start);
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  const cpuAfter = replicas.map((replica) => cpuMs(replica.child.pid));
  const serverCpu = cpuBefore.some((value) => value === null)
    ? null
    : cpuAfter.reduce<number>(
        (sum, value, index) => sum + (value ?? 0) - (cpuBefore[index] ?? 0),
        0,
      ) / latencies.length;
  const client = process.cpuUsage(clientBefore);
  return {
    rps: latencies.length / seconds,
    p50: at(0.5),
    p99: at(0.99),
    serverCpu,
    clientCpu: (client.user + client.system) / 1000 / latencies.length,
  } satisfies LoadResult;
}

async function readsOverReplicas(
  databaseUrl: string,
  schema: string,
  replicaCount: number,
): Promise<string[]> {
  const port = 19_000 + Math.floor(Math.random() * 500);
  const replicas: Replica[] = [];
  try {
    // One after the other: the first migrates (already done) and finds the store seeded, as do the others.
    for (let index = 0; index < replicaCount; index++) {
      replicas.push(await startReplica(index, port + index, databaseUrl, schema));
    }
    const first = replicas[0];
    if (!first) throw new Error('no replica');
    // Sessions live in PostgreSQL: a cookie from one process is good at every other.
    const cookie = await signIn(first.origin);
    // Warm-up: every read on every process (prepared statements per connection, JIT).
    await readLoad(replicas, cookie, 2_000);
    await readLoad([first], cookie, 2_000);
    const results: { label: string; result: LoadResult }[] = [];
    for (let round = 1; round <= 2; round++) {
      results.push({ label: '1 process ', result: await readLoad([first], cookie, READ_REQUESTS) });
      if (replicaCount > 1) {
        results.push({
          label: `${replicaCount} processes`,
          result: await readLoad(replicas, cookie, READ_REQUESTS),
        });
      }
    }
    const best = (label: string) =>
      Math.max(...results.filter((r) => r.label === label).map((r) => r.result.rps));
    const one = best('1 process ');
    const many = replicaCount > 1 ? best(`${replicaCount} processes`) : one;
    const lines = [
      `Reads on PostgreSQL at ${CONNECTIONS} connections, the four reads of a billing page in rotation, ${count(READ_REQUESTS)} requests per run`,
      `(${cpus().length} cores shared by the client, the API processes and PostgreSQL):`,
      ...results.map(
        ({ label, result }) =>
          `  ${label}  ${Math.round(result.rps)} req/s  p50 ${ms(result.p50)}  p99 ${ms(result.p99)}  API CPU ${result.serverCpu === null ? '?' : result.serverCpu.toFixed(2)} ms/req  client CPU ${result.clientCpu.toFixed(2)} ms/req`,
      ),
    ];
    if (replicaCount > 1) {
      lines.push(
        `  best of each: ${replicaCount} processes serve ${((many / one) * 100).toFixed(0)} % of what 1 does (budget: more than 100 %: ${many > one ? 'within budget' : 'OVER budget'})`,
      );
    }
    return lines;
  } finally {
    for (const replica of replicas) await stopReplica(replica);
  }
}

/** The bench's organizations, each with its number n and its kind (see seedClosingOrganizations). */
const CLOSING = sql`(
  SELECT id AS organization_id, n,
    CASE WHEN n % 20 BETWEEN 1 AND 7 THEN 'free'
         WHEN n % 100 = 8 THEN 'decline'
         WHEN n % 20 = 0 THEN 'usage'
         WHEN n % 10 = 9 THEN 'team'
         ELSE 'pro' END AS kind
  FROM (SELECT id, substring(slug FROM 7)::int AS n FROM organizations WHERE slug LIKE 'close-%') AS o
) AS closing`;

/**
 * M organizations (slugs close-<first> …, close-1 … close-M by default) whose monthly cycle ended hours before `now`, a realistic mix
 * by n: 35 % Free (the close records the cycle; nothing is owed, no invoice), 1 % Pro with a card the
 * provider declines, 5 % Pro with usage billing and usage in the cycle (a project, events through the
 * ingestion service), 10 % Team, the rest Pro; every paying organization has a saved simulator card as
 * its default. Also used by the billing job's sharing test.
 */
export async function seedClosingOrganizations(
  db: Db,
  organizations: number,
  now = Date.now(),
  first = 1,
): Promise<void> {
  const end = new Date(now - ENDED_HOURS_AGO * 3_600_000);
  const start = new Date(end.getTime() - 30 * 86_400_000);
  await sql`
    INSERT INTO organizations (slug, name, billing_email)
    SELECT 'close-' || n, 'Close ' || n, 'billing@close-' || n || '.example.com'
    FROM generate_series(${first}::int, ${first + organizations - 1}::int) AS n`.execute(db);
  await sql`
    INSERT INTO subscriptions (organization_id, plan_id, usage_billing_enabled, payment_method_type,
      billing_cycle_anchor, current_period_start, current_period_end)
    SELECT organization_id,
      CASE kind WHEN 'free' THEN 'free' WHEN 'team' THEN 'team' ELSE 'pro' END,
      kind IN ('team', 'usage'), 'card', ${start}::timestamptz, ${start}::timestamptz, ${end}::timestamptz
    FROM ${CLOSING} WHERE n >= ${first}::int`.execute(db);
  await sql`
    INSERT INTO simulator_payment_methods (id, brand, last4, fingerprint, behaviour, exp_month, exp_year, customer)
    SELECT 'pm_sim_close_' || n, 'visa', CASE kind WHEN 'decline' THEN '0002' ELSE '4242' END,
      md5('close-card-' || n), CASE kind WHEN 'decline' THEN 'decline' ELSE 'succeed' END, 12, 2099,
      organization_id::text
    FROM ${CLOSING} WHERE n >= ${first}::int AND kind <> 'free'`.execute(db);
  await sql`
    INSERT INTO payment_methods (id, organization_id, provider, provider_payment_method_id, brand, last4,
      exp_month, exp_year, is_default)
    SELECT 'pm_close_' || n, organization_id, 'simulator', 'pm_sim_close_' || n, 'visa',
      CASE kind WHEN 'decline' THEN '0002' ELSE '4242' END, 12, 2099, true
    FROM ${CLOSING} WHERE n >= ${first}::int AND kind <> 'free'`.execute(db);
  await sql`
    INSERT INTO projects (organization_id, ref, name, status, compute_size)
    SELECT organization_id, 'close' || n, 'Close project ' || n, 'ACTIVE_HEALTHY', 'small'
    FROM ${CLOSING} WHERE n >= ${first}::int AND kind = 'usage'`.execute(db);
  const { rows } = await sql<{ n: number }>`
    SELECT n FROM ${CLOSING} WHERE kind = 'usage' AND n >= ${first}::int ORDER BY n`.execute(db);
  const day = Math.floor(end.getTime() / 1000) - 86_400;
  const events = rows.flatMap(({ n }) => [
    { id: `close:${n}:egress`, project_ref: `close${n}`, metric: 'EGRESS' as const, usage: 300e9 },
    {
      id: `close:${n}:mau`,
      project_ref: `close${n}`,
      metric: 'MONTHLY_ACTIVE_USERS' as const,
      usage: 150_000,
    },
  ]);
  for (let offset = 0; offset < events.length; offset += 1_000) {
    await ingestUsageEvents(
      db,
      events.slice(offset, offset + 1_000).map((event) => ({ ...event, timestamp: day })),
    );
  }
}

interface RunnerOutput {
  seconds: number;
  closed: number;
  paid: number;
  failed: number;
  errors: unknown[];
}

interface Runner {
  ready: Promise<void>;
  go(): void;
  done: Promise<RunnerOutput>;
}

function startRunner(databaseUrl: string, schema: string): Runner {
  const file = fileURLToPath(new URL('./billing-runner.ts', import.meta.url));
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', file], {
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      PAYMENT_PROVIDER: 'simulator',
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) onReady();
  });
  const done = new Promise<RunnerOutput>((resolve, reject) => {
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`A billing process exited with ${code}: ${out}`));
      const line = out.trim().split('\n').pop() ?? '';
      resolve(JSON.parse(line) as RunnerOutput);
    });
  });
  done.catch(() => onReady());
  return { ready, done, go: () => child.stdin.end('go\n') };
}

export interface ExactlyOnce {
  organizations: number;
  due: number;
  closedCycles: number;
  cyclesClosedTwice: number;
  invoices: number;
  expectedInvoices: number;
  invoicesPerPeriodTwice: number;
  paid: number;
  open: number;
  openDue: number;
  charges: number;
  unsettled: number;
  invoicesChargedTwice: number;
  paidWithoutCharge: number;
  providerSucceeded: number;
  succeededCharges: number;
}

export async function checkExactlyOnce(db: Db, at: Date): Promise<ExactlyOnce> {
  const one = async <T>(query: ReturnType<typeof sql<T>>) => {
    const { rows } = await query.execute(db);
    const row = rows[0];
    if (!row) throw new Error('no row');
    return row;
  };
  const orgs = sql`(SELECT id FROM organizations WHERE slug LIKE 'close-%')`;
  const graceAgo = new Date(at.getTime() - 60 * 60_000);
  const counts = await one(sql<Record<keyof ExactlyOnce, string | number>>`
    SELECT
      (SELECT count(*) FROM organizations WHERE slug LIKE 'close-%') AS organizations,
      (SELECT count(*) FROM subscriptions WHERE organization_id IN ${orgs}
        AND current_period_end <= ${graceAgo}::timestamptz) AS due,
      (SELECT count(*) FROM closed_cycles WHERE organization_id IN ${orgs}) AS "closedCycles",
      (SELECT count(*) FROM (SELECT organization_id FROM closed_cycles WHERE organization_id IN ${orgs}
        GROUP BY organization_id HAVING count(*) > 1) AS twice) AS "cyclesClosedTwice",
      (SELECT count(*) FROM invoices WHERE organization_id IN ${orgs}) AS invoices,
      (SELECT count(*) FROM subscriptions WHERE organization_id IN ${orgs} AND plan_id <> 'free')
        AS "expectedInvoices",
      (SELECT count(*) FROM (SELECT 1 FROM invoices WHERE organization_id IN ${orgs}
        GROUP BY organization_id, period_start HAVING count(*) > 1) AS twice) AS "invoicesPerPeriodTwice",
      (SELECT count(*) FROM invoices WHERE organization_id IN ${orgs} AND status = 'paid') AS paid,
      (SELECT count(*) FROM invoices WHERE organization_id IN ${orgs} AND status = 'open') AS open,
      (SELECT count(*) FROM invoices WHERE organization_id IN ${orgs} AND status = 'open'
        AND next_payment_attempt_at <= ${at}::timestamptz) AS "openDue",
      (SELECT count(*) FROM charges WHERE organization_id IN ${orgs}) AS charges,
      (SELECT count(*) FROM charges WHERE organization_id IN ${orgs}
        AND status IN ('pending', 'requires_action')) AS unsettled,
      (SELECT count(*) FROM (SELECT invoice_id FROM charges WHERE organization_id IN ${orgs}
        AND status = 'succeeded' GROUP BY invoice_id HAVING count(*) > 1) AS twice) AS "invoicesChargedTwice",
      (SELECT count(*) FROM invoices i WHERE organization_id IN ${orgs} AND status = 'paid'
        AND amount_due_cents > 0 AND NOT EXISTS (SELECT 1 FROM charges c WHERE c.invoice_id = i.id
        AND c.status = 'succeeded')) AS "paidWithoutCharge",
      (SELECT count(*) FROM simulator_payment_intents WHERE status = 'succeeded'
        AND payment_method_id LIKE 'pm_sim_close_%') AS "providerSucceeded",
      (SELECT count(*) FROM charges WHERE organization_id IN ${orgs} AND status = 'succeeded')
        AS "succeededCharges"`);
  return Object.fromEntries(
    Object.entries(counts).map(([key, value]) => [key, Number(value)]),
  ) as unknown as ExactlyOnce;
}

async function closeCyclesAtOnce(
  db: Db,
  databaseUrl: string,
  schema: string,
  organizations: number,
  processes: number,
): Promise<string[]> {
  const seeding = performance.now();
  await seedClosingOrganizations(db, organizations);
  const seeded = (performance.now() - seeding) / 1000;
  const runners = Array.from({ length: processes }, () => startRunner(databaseUrl, schema));
  const booting = performance.now();
  await Promise.all(runners.map((runner) => runner.ready));
  const booted = (performance.now() - booting) / 1000;
  const began = performance.now();
  for (const runner of runners) runner.go();
  const outputs = await Promise.all(runners.map((runner) => runner.done));
  const wall = (performance.now() - began) / 1000;
  const check = await checkExactlyOnce(db, new Date());
  const exactlyOnce =
    check.due === 0 &&
    check.closedCycles === check.organizations &&
    check.cyclesClosedTwice === 0 &&
    check.invoices === check.expectedInvoices &&
    check.invoicesPerPeriodTwice === 0 &&
    check.openDue === 0 &&
    check.unsettled === 0 &&
    check.invoicesChargedTwice === 0 &&
    check.paidWithoutCharge === 0 &&
    check.providerSucceeded === check.succeededCharges;
  const errors = outputs.flatMap((output) => output.errors);
  return [
    `Billing job: ${count(organizations)} organizations with an ended cycle (seeded in ${seeded.toFixed(1)} s), ${processes} billing processes started at once:`,
    `  every cycle closed and collected in ${wall.toFixed(1)} s from the moment they started together (budget: under ${CLOSE_BUDGET_SECONDS} s: ${wall < CLOSE_BUDGET_SECONDS ? 'within budget' : 'OVER budget'}); loading the processes took ${booted.toFixed(1)} s before that`,
    ...outputs.map(
      (output, index) =>
        `  process ${index + 1}: its pass took ${output.seconds.toFixed(1)} s; it closed ${count(output.closed)} invoices, collected ${count(output.paid)}, saw ${count(output.failed)} declined`,
    ),
    `  exactly once: ${exactlyOnce && errors.length === 0 ? 'yes' : 'NO'} — ${count(check.closedCycles)} cycles closed for ${count(check.organizations)} organizations (${check.cyclesClosedTwice} twice, ${check.due} still due); ${count(check.invoices)} invoices for ${count(check.expectedInvoices)} paying organizations (${check.invoicesPerPeriodTwice} periods invoiced twice);`,
    `    ${count(check.paid)} paid, ${count(check.open)} open (${check.openDue} due for collection); ${count(check.charges)} charges, ${check.unsettled} unsettled, ${check.invoicesChargedTwice} invoices charged twice, ${check.paidWithoutCharge} paid without a charge; provider: ${count(check.providerSucceeded)} successful payments for ${count(check.succeededCharges)} succeeded charges${errors.length > 0 ? `; ${errors.length} item errors: ${JSON.stringify(errors.slice(0, 3))}` : ''}`,
  ];
}

export async function runScaleBench(options: ScaleOptions): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL;
  const schema = `bench_scale_${Date.now()}`;
  let database;
  try {
    database = await openDatabase({ databaseUrl, schema });
  } catch (error) {
    console.error(
      `--replicas and --close-cycles need a PostgreSQL server (several processes cannot share the embedded ` +
        `database): ${databaseUrl} did not answer (${error instanceof Error ? error.message : String(error)}). ` +
        'Set BENCH_DATABASE_URL=postgres://… to name one.',
    );
    process.exitCode = 2;
    return;
  }
  try {
    console.log(
      `Preparing schema ${schema} on ${databaseUrl.replace(/\/\/[^@/]*@/, '//…@')} (migrated and seeded once)…`,
    );
    await migrateToLatest(database.db, schema);
    await seedDemoWorld(database.db, systemClock);
    const lines: string[] = [];
    if (options.reads)
      lines.push(...(await readsOverReplicas(databaseUrl, schema, options.replicas)));
    if (options.closeCycles > 0) {
      lines.push(
        ...(await closeCyclesAtOnce(
          database.db,
          databaseUrl,
          schema,
          options.closeCycles,
          options.replicas,
        )),
      );
    }
    console.log(`\nMeterline scale benchmark (PostgreSQL, ${options.replicas} processes)\n`);
    console.log(lines.join('\n'));
  } finally {
    await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(database.db);
    await database.close();
  }
}
