import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.ts';
import { BackgroundLoop } from '../background-loop.ts';
import type { EmailTransport } from '../../adapters/email-transport.ts';
import { payLinkSecret } from '../../repositories/pay-links.ts';
import { renderEmail } from './render-email.tsx';

/** A claimed row is this worker's for this long; a row whose lease ran out is claimed again. */
export const CLAIM_SECONDS = 60;
/** Attempts before a message is given up (the last about 3 days after the first). */
export const MAX_ATTEMPTS = 12;
const BATCH = 20;

/** Backoff after the n-th failed attempt: 1, 2, 4 ... minutes, at most 12 hours. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(60 * 2 ** Math.max(0, attempts - 1), 12 * 3600);
}

export interface OutboxSettings {
  from: string;
  baseUrl: string;
}

export interface DeliveryReport {
  delivered: number;
  failed: number;
}

/**
 * One pass over the outbox: claims the rows that are due (a lease written by this claim, in one statement,
 * so two workers never hold the same row), hands each to the transport, and records the outcome. A
 * message that fails waits its backoff and leaves the others going. Times are the wall clock: leases and
 * retries are about this machine's time, not the billing clock.
 */
export async function deliverDueEmails(
  db: Db,
  transport: EmailTransport,
  settings: OutboxSettings,
  log?: FastifyBaseLogger,
): Promise<DeliveryReport> {
  const report = { delivered: 0, failed: 0 };
  for (;;) {
    const now = new Date();
    const claimedUntil = new Date(now.getTime() + CLAIM_SECONDS * 1000);
    const due = db
      .selectFrom('email_outbox')
      .select('id')
      .where('delivered_at', 'is', null)
      .where('failed_at', 'is', null)
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .orderBy('created_at')
      .limit(BATCH)
      .forUpdate()
      .skipLocked();
    const rows = await db
      .updateTable('email_outbox')
      .set({ claimed_until: claimedUntil, attempts: sql`attempts + 1` })
      .where('id', 'in', due)
      .returningAll()
      .execute();
    if (rows.length === 0) return report;
    const links = { baseUrl: settings.baseUrl, payLinkSecret: await payLinkSecret(db) };
    for (const row of rows) {
      try {
        const rendered = await renderEmail(row.payload, links);
        await transport.deliver({
          from: settings.from,
          to: row.recipient,
          subject: row.subject,
          html: rendered.html,
          text: rendered.text,
          messageId: row.message_id,
        });
        await db
          .updateTable('email_outbox')
          .set({
            delivered_at: new Date(),
            claimed_until: null,
            html: rendered.html,
            text: rendered.text,
            last_error: null,
          })
          .where('id', '=', row.id)
          .execute();
        report.delivered += 1;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        const givenUp = row.attempts >= MAX_ATTEMPTS;
        await db
          .updateTable('email_outbox')
          .set({
            claimed_until: null,
            last_error: message.slice(0, 500),
            next_attempt_at: new Date(Date.now() + retryDelaySeconds(row.attempts) * 1000),
            failed_at: givenUp ? new Date() : null,
          })
          .where('id', '=', row.id)
          .execute();
        report.failed += 1;
        log?.warn(
          { email: row.id, event: row.event, attempts: row.attempts, error: message },
          givenUp ? 'email given up' : 'email delivery failed; retried after a backoff',
        );
      }
    }
  }
}

/**
 * Delivers the outbox in the background: at once when told that something was written (`kick`), and
 * every interval for what waits for a retry or was left claimed by a process that stopped.
 */
export class OutboxWorker extends BackgroundLoop {
  constructor(
    db: Db,
    private readonly transport: EmailTransport,
    settings: OutboxSettings,
    log: FastifyBaseLogger,
    intervalSeconds: number,
  ) {
    super(
      () => deliverDueEmails(db, transport, settings, log),
      intervalSeconds,
      log,
      'email outbox',
    );
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.transport.close();
  }
}
