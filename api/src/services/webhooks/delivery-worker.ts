import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { WEBHOOK_SIGNATURE_HEADER } from '@meterline/domain';
import { systemClock, type Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { BackgroundLoop } from '../background-loop.ts';
import { enqueueBillingEmail } from '../notifications/enqueue-email.ts';
import { guardedLookup, isForbiddenAddress } from './address-check.ts';
import { webhookId } from './enqueue-webhook.ts';
import { signStandardWebhook, signWebhook } from './signature.ts';

/** A claimed delivery is this worker's for this long (longer than one attempt's timeout). */
export const CLAIM_SECONDS = 60;
export const TIMEOUT_MS = 10_000;
/** Retries of a delivery, and failures of an endpoint before it is disabled, span this long. */
export const RETRY_WINDOW_SECONDS = 3 * 24 * 3600;
export const EXCERPT_CHARS = 500;
/** Of an answer's body, this much is read (the excerpt is its start). */
const READ_BYTES = 16 * 1024;
/** Claimed together: even all timing out (10 s each) they are done within the lease. */
const BATCH = 5;

/** Backoff after the n-th failed attempt: 1, 2, 4 ... minutes, at most 12 hours. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(60 * 2 ** Math.max(0, attempts - 1), 12 * 3600);
}

export interface WebhookDeliverySettings {
  /** Production mode: only public addresses are reached (checked on the addresses connected to). */
  production: boolean;
  /** Decides whether a rotated secret still signs (its expiry was written by this clock); the system's. */
  clock?: Clock;
}

/** The secrets a delivery is signed with now: the endpoint's, and the one it replaced while still valid. */
export function signingSecrets(
  endpoint: {
    secret: string;
    previous_secret: string | null;
    previous_secret_expires_at: Date | null;
  },
  now: Date,
): string[] {
  const { secret, previous_secret: previous, previous_secret_expires_at: until } = endpoint;
  return previous && until && until.getTime() > now.getTime() ? [secret, previous] : [secret];
}

export interface WebhookReport {
  delivered: number;
  failed: number;
  disabled: number;
}

interface AttemptOutcome {
  ok: boolean;
  status: number | null;
  durationMs: number;
  excerpt: string;
  error: string | null;
}

/**
 * One POST: signed now (`Meterline-Signature` and the Standard Webhooks headers, with each secret
 * given), 10 s at most, the answer's start read; never throws. `messageId` is the event's id, the
 * same on every attempt, so a receiver drops repeats by `webhook-id`.
 */
export async function postWebhook(
  url: string,
  secrets: string | readonly string[],
  body: string,
  settings: WebhookDeliverySettings,
  messageId: string = webhookId('evt'),
): Promise<AttemptOutcome> {
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (error: string, status: number | null = null): AttemptOutcome => ({
    ok: false,
    status,
    durationMs: elapsed(),
    excerpt: '',
    error: error.slice(0, EXCERPT_CHARS),
  });
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return failure('the endpoint URL is not valid');
  }
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (
    settings.production &&
    (target.protocol !== 'https:' || (isIP(host) && isForbiddenAddress(host)))
  ) {
    return failure(`refused: ${host} is not a public https address`);
  }
  const timestamp = Math.floor(Date.now() / 1000);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        signal: AbortSignal.timeout(TIMEOUT_MS),
        // Production: the addresses connected to are the ones checked (DNS rebinding included).
        lookup: settings.production ? guardedLookup : undefined,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Meterline-Webhooks/1.0',
          [WEBHOOK_SIGNATURE_HEADER]: signWebhook(keys, timestamp, body),
          'webhook-id': messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signStandardWebhook(keys, messageId, timestamp, body),
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const status = response.statusCode ?? null;
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS);
          const ok = status !== null && status >= 200 && status < 300;
          resolve({
            ok,
            status,
            durationMs: elapsed(),
            excerpt,
            error: ok ? null : `the endpoint answered HTTP ${status}`,
          });
        };
        response.on('data', (chunk: Buffer) => {
          if (size < READ_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= READ_BYTES) {
            response.destroy();
            finish();
          }
        });
        response.on('end', finish);
        response.on('error', (error) =>
          resolve(failure(error.message, response.statusCode ?? null)),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      const timedOut = error.name === 'AbortError' || error.name === 'TimeoutError';
      resolve(failure(timedOut ? `no answer within ${TIMEOUT_MS / 1000} s` : error.message));
    });
    request.end(body);
  });
}

/**
 * One pass over the due deliveries of enabled endpoints: claims them (a lease written by the claim, in
 * one statement, so two workers never hold the same row), posts each, and records the attempt. A
 * failure waits its backoff; after 3 days of retries the delivery is given up, and an endpoint that
 * has failed everything for 3 days is disabled and its owners are emailed. Wall-clock times.
 */
export async function deliverDueWebhooks(
  db: Db,
  settings: WebhookDeliverySettings,
  log?: FastifyBaseLogger,
): Promise<WebhookReport> {
  const report = { delivered: 0, failed: 0, disabled: 0 };
  for (;;) {
    const now = new Date();
    const due = db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('delivered_at', 'is', null)
      .where('failed_at', 'is', null)
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .where('endpoint_id', 'in', (eb) =>
        eb.selectFrom('webhook_endpoints').select('id').where('enabled', '=', true),
      )
      .orderBy('created_at')
      .limit(BATCH)
      .forUpdate()
      .skipLocked();
    const rows = await db
      .updateTable('webhook_deliveries')
      .set({
        claimed_until: new Date(now.getTime() + CLAIM_SECONDS * 1000),
        attempts: sql`attempts + 1`,
      })
      .where('id', 'in', due)
      .returningAll()
      .execute();
    if (rows.length === 0) return report;
    for (const row of rows) {
      const event = await db
        .selectFrom('webhook_events')
        .selectAll()
        .where('id', '=', row.event_id)
        .executeTakeFirstOrThrow();
      const endpoint = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', row.endpoint_id)
        .executeTakeFirstOrThrow();
      const body = JSON.stringify({
        id: event.id,
        type: event.type,
        created: Math.floor(event.created_at.getTime() / 1000),
        data: event.data,
      });
      const attemptAt = new Date();
      const secrets = signingSecrets(endpoint, (settings.clock ?? systemClock).now());
      const outcome = await postWebhook(endpoint.url, secrets, body, settings, event.id);
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('webhook_attempts')
          .values({
            id: webhookId('wa'),
            delivery_id: row.id,
            at: attemptAt,
            response_status: outcome.status,
            duration_ms: outcome.durationMs,
            response_excerpt: outcome.excerpt,
            error: outcome.error,
          })
          .execute();
        const after = new Date();
        if (outcome.ok) {
          await trx
            .updateTable('webhook_deliveries')
            .set({ delivered_at: after, claimed_until: null, last_status: outcome.status })
            .where('id', '=', row.id)
            .execute();
          await trx
            .updateTable('webhook_endpoints')
            .set({ failing_since: null })
            .where('id', '=', endpoint.id)
            .execute();
          report.delivered += 1;
          return;
        }
        report.failed += 1;
        const windowEnd = row.retry_since.getTime() + RETRY_WINDOW_SECONDS * 1000;
        const givenUp = after.getTime() >= windowEnd;
        const next = Math.min(after.getTime() + retryDelaySeconds(row.attempts) * 1000, windowEnd);
        await trx
          .updateTable('webhook_deliveries')
          .set({
            claimed_until: null,
            last_status: outcome.status,
            next_attempt_at: new Date(next),
            failed_at: givenUp ? after : null,
          })
          .where('id', '=', row.id)
          .execute();
        const failing = await trx
          .updateTable('webhook_endpoints')
          .set({ failing_since: sql`coalesce(failing_since, ${attemptAt})` })
          .where('id', '=', endpoint.id)
          .returning(['failing_since'])
          .executeTakeFirstOrThrow();
        const failingSince = failing.failing_since ?? attemptAt;
        log?.warn(
          { webhookDelivery: row.id, attempts: row.attempts, error: outcome.error },
          givenUp
            ? 'webhook delivery given up'
            : 'webhook delivery failed; retried after a backoff',
        );
        if (after.getTime() - failingSince.getTime() < RETRY_WINDOW_SECONDS * 1000) return;
        // Failing for 3 days: off, once (the update answers only to the pass that turns it off).
        const turnedOff = await trx
          .updateTable('webhook_endpoints')
          .set({ enabled: false, disabled_reason: 'failing' })
          .where('id', '=', endpoint.id)
          .where('enabled', '=', true)
          .returning('id')
          .executeTakeFirst();
        if (!turnedOff) return;
        report.disabled += 1;
        const owners = await trx
          .selectFrom('memberships')
          .innerJoin('users', 'users.id', 'memberships.user_id')
          .select('users.email')
          .where('memberships.organization_id', '=', endpoint.organization_id)
          .where('memberships.role', '=', 'owner')
          .orderBy('users.email')
          .execute();
        await enqueueBillingEmail(
          trx,
          endpoint.organization_id,
          `${endpoint.id}:${failingSince.toISOString()}`,
          {
            kind: 'webhook.disabled',
            endpointId: endpoint.id,
            url: endpoint.url,
            failingSince: Math.floor(failingSince.getTime() / 1000),
            lastError: outcome.error,
          },
          owners.map((owner) => owner.email),
        );
        log?.warn(
          { webhookEndpoint: endpoint.id },
          'webhook endpoint disabled after 3 days of failures',
        );
      });
    }
  }
}

/** Tells the worker something was queued (a test event, a resend), so it does not wait its interval. */
export class WebhookSignal {
  private listener: (() => void) | undefined;
  listen(listener: () => void): void {
    this.listener = listener;
  }
  queued(): void {
    this.listener?.();
  }
}

/** Delivers webhooks in the background: when told, and every interval for what waits for a retry. */
export class WebhookWorker extends BackgroundLoop {
  constructor(
    db: Db,
    settings: WebhookDeliverySettings,
    log: FastifyBaseLogger,
    intervalSeconds: number,
  ) {
    super(() => deliverDueWebhooks(db, settings, log), intervalSeconds, log, 'webhook delivery');
  }
}
