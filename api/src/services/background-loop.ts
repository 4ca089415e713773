import type { FastifyBaseLogger } from 'fastify';

/**
 * A pass of work run in the background: every interval, and at once when told there is work (`kick`).
 * One pass at a time; a kick during a pass runs another right after it. A pass that throws is logged and
 * the loop goes on. Interval 0: never runs on its own, nor when kicked.
 */
export class BackgroundLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly intervalSeconds: number,
    private readonly log: FastifyBaseLogger,
    /** Named in the log line of a failed pass: "email outbox pass failed". */
    private readonly name: string,
  ) {}

  start(): void {
    if (this.intervalSeconds <= 0 || this.timer) return;
    this.timer = setInterval(() => this.kick(), this.intervalSeconds * 1000);
    this.timer.unref();
    this.kick();
  }

  kick(): void {
    if (this.intervalSeconds <= 0) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } catch (error) {
        this.log.error({ err: error }, `${this.name} pass failed`);
      } finally {
        this.running = undefined;
      }
    })();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
