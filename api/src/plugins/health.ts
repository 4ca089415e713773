import { sql } from 'kysely';
import fp from 'fastify-plugin';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { migrations } from '../db/migrations/index.ts';

/** How long the billing job may go without a finished run, in intervals (and at least five minutes). */
const BILLING_JOB_STALE_INTERVALS = 3;
const BILLING_JOB_STALE_MIN_MS = 5 * 60_000;

/**
 * What this process knows of its own billing job: when its scheduler started, and when a run last finished
 * (a run that met errors in some items still finished: it isolates them). Written by this process only.
 */
export class BillingJobHeartbeat {
  private startedAt: Date | null = null;
  private lastRunAt: Date | null = null;
  private readonly listeners: ((at: Date, seconds: number) => void)[] = [];

  constructor(private readonly intervalSeconds: number) {}

  started(at: Date): void {
    this.startedAt = at;
  }

  /** A run finished at `at`, after `seconds` of work. */
  ran(at: Date, seconds = 0): void {
    this.lastRunAt = at;
    for (const listener of this.listeners) listener(at, seconds);
  }

  /** Told of every finished run (the metrics count them). */
  onRun(listener: (at: Date, seconds: number) => void): void {
    this.listeners.push(listener);
  }

  /** `off` when this process runs no billing job (BILLING_JOB_INTERVAL_SECONDS=0, or not started). */
  state(now: Date): { status: 'ok' | 'off' | 'stale'; last_run_at: string | null } {
    const last_run_at = this.lastRunAt?.toISOString() ?? null;
    if (this.intervalSeconds <= 0 || !this.startedAt) return { status: 'off', last_run_at };
    const since = (this.lastRunAt ?? this.startedAt).getTime();
    const allowed = Math.max(
      BILLING_JOB_STALE_INTERVALS * this.intervalSeconds * 1000,
      BILLING_JOB_STALE_MIN_MS,
    );
    return { status: now.getTime() - since > allowed ? 'stale' : 'ok', last_run_at };
  }
}

const LATEST_MIGRATION = Object.keys(migrations).sort().at(-1) ?? '';

const check = z.object({ status: z.enum(['ok', 'failed']), detail: z.string().optional() });
const readySchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  checks: z.object({
    database: check,
    migrations: check,
    billing_job: z.object({
      status: z.enum(['ok', 'off', 'stale']),
      last_run_at: z.string().nullable(),
    }),
  }),
});
type Ready = z.infer<typeof readySchema>;

async function databaseChecks(db: Db): Promise<Pick<Ready['checks'], 'database' | 'migrations'>> {
  let latest: string | undefined;
  try {
    const { rows } = await sql<{ name: string }>`
      SELECT name FROM kysely_migration ORDER BY name DESC LIMIT 1`.execute(db);
    latest = rows[0]?.name;
  } catch (error) {
    return {
      database: {
        status: 'failed',
        detail: error instanceof Error ? error.message : 'the database did not answer',
      },
      migrations: { status: 'failed', detail: 'not checked: the database did not answer' },
    };
  }
  return {
    database: { status: 'ok' },
    migrations:
      latest === LATEST_MIGRATION
        ? { status: 'ok' }
        : {
            status: 'failed',
            detail: `the database is at ${latest ?? 'no migration'}, this server needs ${LATEST_MIGRATION}`,
          },
  };
}

/**
 * Probes for load balancers and orchestrators (product-decisions §17). `/platform/health`: the process
 * answers. `/platform/ready`: the database answers, its migrations are this server's, and this process's
 * billing job has finished a run recently; 503 naming what failed otherwise. Neither needs a session, and
 * neither is ever cached.
 */
export const healthPlugin = fp<{ db: Db; clock: Clock; heartbeat: BillingJobHeartbeat }>(
  async (app, { db, clock, heartbeat }) => {
    app.get(
      '/platform/health',
      {
        config: { access: { kind: 'public' } },
        schema: {
          tags: ['operations'],
          summary: 'Liveness: the process answers (no database is asked)',
          response: { 200: z.object({ status: z.literal('ok') }) },
        },
      },
      (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }),
    );
    app.get(
      '/platform/ready',
      {
        config: { access: { kind: 'public' } },
        schema: {
          tags: ['operations'],
          summary:
            'Readiness: the database answers, its migrations are current and the billing job ran recently (503 otherwise)',
          response: { 200: readySchema, 503: readySchema },
        },
      },
      async (_request, reply) => {
        const checks: Ready['checks'] = {
          ...(await databaseChecks(db)),
          billing_job: heartbeat.state(clock.now()),
        };
        const ready =
          checks.database.status === 'ok' &&
          checks.migrations.status === 'ok' &&
          checks.billing_job.status !== 'stale';
        return reply
          .code(ready ? 200 : 503)
          .header('cache-control', 'no-store')
          .send({ status: ready ? 'ready' : 'not_ready', checks });
      },
    );
  },
  { name: 'health', dependencies: ['access'] },
);
