import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { PaymentGateway } from '../../adapters/payment-gateway.ts';
import { runBillingJobs } from './run-billing-jobs.ts';

/**
 * Runs the billing job every interval. All its state lives in the database (cycle ends, next payment
 * attempts), so a restart simply carries on where the store says, and a job that ran late catches up.
 */
export class BillingScheduler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly gateway: PaymentGateway,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly intervalSeconds: number,
    private readonly closeGraceMinutes: number,
    /** Organizations and invoices worked on at once (billingJobConcurrency of the store). */
    private readonly concurrency = 1,
    /** Told when the scheduler starts, and at the end of each run that finished (the readiness probe). */
    private readonly heartbeat: {
      started(at: Date): void;
      ran(at: Date, seconds: number): void;
    } | null = null,
  ) {}

  start(): void {
    if (this.intervalSeconds <= 0 || this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.intervalSeconds * 1000);
    this.timer.unref();
    this.heartbeat?.started(this.clock.now());
    void this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async tick(): Promise<void> {
    if (this.running) return;
    this.running = (async () => {
      const began = performance.now();
      try {
        const report = await runBillingJobs(
          { db: this.db, gateway: this.gateway, clock: this.clock },
          this.clock.now(),
          undefined,
          this.closeGraceMinutes,
          { concurrency: this.concurrency },
        );
        this.heartbeat?.ran(this.clock.now(), (performance.now() - began) / 1000);
        for (const error of report.errors) {
          this.log.warn({ item: error }, 'billing job item failed; it is retried after a backoff');
        }
        if (
          report.closed.length +
            report.paid.length +
            report.failed.length +
            report.restricted.length +
            report.reconciled.length +
            report.refunded.length >
          0
        ) {
          this.log.info({ report }, 'billing job');
        }
      } catch (error) {
        this.log.error({ err: error }, 'billing job failed; it runs again at the next interval');
      } finally {
        this.running = undefined;
      }
    })();
    await this.running;
  }
}
