import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { errorResponseSchema } from '@meterline/domain';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { operationsSnapshot } from '../repositories/operations.ts';
import type { BillingJobHeartbeat } from './health.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts usage events stored by this process (the ingestion route tells it). */
    countIngestedEvents: (accepted: number, duplicates: number) => void;
  }
}

/**
 * Prometheus metrics (product-decisions §17), in the text format at `GET /internal/metrics`, behind the
 * operator key like every operator call. Two kinds:
 * - this process's own: HTTP requests by route and status (a latency histogram), its billing job's runs and
 *   their duration, usage events it stored, and Node's process metrics;
 * - the store's, shared by every process and read at each scrape: charges by purpose and outcome, cycles
 *   closed, billing job items failing (by kind), and the mail outbox's and webhook deliveries' backlog, the
 *   age of their oldest waiting message and how many gave up. A process that only runs `npm run billing`
 *   moves these too.
 */
export const metricsPlugin = fp<{ db: Db; clock: Clock; heartbeat: BillingJobHeartbeat }>(
  async (app, { db, clock, heartbeat }) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry, prefix: 'meterline_' });
    const registers = [registry];

    const http = new Histogram({
      name: 'meterline_http_request_duration_seconds',
      help: 'HTTP requests answered by this process, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      http.observe(
        { method: request.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });

    const runs = new Counter({
      name: 'meterline_billing_job_runs_total',
      help: 'Billing job runs this process finished (a run that met failing items still finished)',
      registers,
    });
    const runSeconds = new Histogram({
      name: 'meterline_billing_job_run_duration_seconds',
      help: "How long this process's billing job runs took",
      buckets: [0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    });
    const lastRun = new Gauge({
      name: 'meterline_billing_job_last_run_timestamp_seconds',
      help: "When this process's billing job last finished a run (Unix seconds; 0: not yet)",
      registers,
    });
    heartbeat.onRun((at, seconds) => {
      runs.inc();
      runSeconds.observe(seconds);
      lastRun.set(at.getTime() / 1000);
    });

    const ingested = new Counter({
      name: 'meterline_usage_events_ingested_total',
      help: 'Usage events this process received, by outcome (stored, or a duplicate of one stored before)',
      labelNames: ['outcome'] as const,
      registers,
    });
    app.decorate('countIngestedEvents', (accepted: number, duplicates: number) => {
      ingested.inc({ outcome: 'stored' }, accepted);
      ingested.inc({ outcome: 'duplicate' }, duplicates);
    });

    // The store's figures, read at each scrape.
    const charges = new Gauge({
      name: 'meterline_charges',
      help: 'Charges in the store, by purpose and status (all processes)',
      labelNames: ['purpose', 'status'] as const,
      registers,
    });
    const cyclesClosed = new Gauge({
      name: 'meterline_cycles_closed',
      help: 'Billing cycles closed into invoices (all processes)',
      registers,
    });
    const jobFailures = new Gauge({
      name: 'meterline_billing_job_failing_items',
      help: 'Billing job items failing and waiting for their backoff, by kind (all processes)',
      labelNames: ['kind'] as const,
      registers,
    });
    const backlog = new Gauge({
      name: 'meterline_backlog_pending',
      help: 'Messages waiting to be delivered, by queue (email outbox, webhook deliveries)',
      labelNames: ['queue'] as const,
      registers,
    });
    const backlogAge = new Gauge({
      name: 'meterline_backlog_oldest_pending_age_seconds',
      help: 'Age of the oldest message waiting, by queue (0 when none waits)',
      labelNames: ['queue'] as const,
      registers,
    });
    const gaveUp = new Gauge({
      name: 'meterline_backlog_failed',
      help: 'Messages given up after their retries, by queue',
      labelNames: ['queue'] as const,
      registers,
    });

    async function readStore(): Promise<void> {
      const snapshot = await operationsSnapshot(db, clock.now());
      charges.reset();
      for (const row of snapshot.charges) {
        charges.set({ purpose: row.purpose, status: row.status }, row.count);
      }
      cyclesClosed.set(snapshot.cyclesClosed);
      jobFailures.reset();
      for (const row of snapshot.jobFailures) jobFailures.set({ kind: row.kind }, row.count);
      for (const [queue, figures] of [
        ['email_outbox', snapshot.outbox],
        ['webhook_deliveries', snapshot.webhooks],
      ] as const) {
        backlog.set({ queue }, figures.pending);
        backlogAge.set({ queue }, figures.oldestPendingSeconds);
        gaveUp.set({ queue }, figures.failed);
      }
    }

    app.get(
      '/internal/metrics',
      {
        config: { access: { kind: 'operator' } },
        schema: {
          tags: ['internal'],
          summary:
            'Prometheus metrics of this process and of the store (Authorization: Bearer METERING_API_KEY)',
          produces: ['text/plain'],
          response: {
            200: z.any().describe('Prometheus text format 0.0.4'),
            401: errorResponseSchema,
            429: errorResponseSchema,
          },
        },
      },
      async (_request, reply) => {
        await readStore();
        return reply
          .header('content-type', registry.contentType)
          .header('cache-control', 'no-store')
          .send(await registry.metrics());
      },
    );
  },
  { name: 'metrics', dependencies: ['access'] },
);
