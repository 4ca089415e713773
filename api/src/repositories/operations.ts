import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** What the store says of the work every process shares, for the metrics: counts and the oldest waiting. */
export interface OperationsSnapshot {
  charges: { purpose: string; status: string; count: number }[];
  cyclesClosed: number;
  jobFailures: { kind: string; count: number }[];
  outbox: { pending: number; oldestPendingSeconds: number; failed: number };
  webhooks: { pending: number; oldestPendingSeconds: number; failed: number };
}

/** One round of small aggregate statements (each reads an index or a small table). */
export async function operationsSnapshot(db: Db, now: Date): Promise<OperationsSnapshot> {
  const [charges, cycles, failures, outbox, webhooks] = await Promise.all([
    db
      .selectFrom('charges')
      .select(['purpose', 'status', sql<number>`count(*)::int`.as('count')])
      .groupBy(['purpose', 'status'])
      .execute(),
    db
      .selectFrom('closed_cycles')
      .select(sql<number>`count(*)::int`.as('count'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('billing_job_failures')
      .select(['kind', sql<number>`count(*)::int`.as('count')])
      .groupBy('kind')
      .execute(),
    queueFigures(db, 'email_outbox'),
    queueFigures(db, 'webhook_deliveries'),
  ]);
  const age = (oldest: Date | null) =>
    oldest ? Math.max(0, (now.getTime() - new Date(oldest).getTime()) / 1000) : 0;
  return {
    charges,
    cyclesClosed: cycles.count,
    jobFailures: failures,
    outbox: {
      pending: outbox.pending,
      failed: outbox.failed,
      oldestPendingSeconds: age(outbox.oldest),
    },
    webhooks: {
      pending: webhooks.pending,
      failed: webhooks.failed,
      oldestPendingSeconds: age(webhooks.oldest),
    },
  };
}

/** A delivery queue's waiting and given-up messages, and when the oldest waiting one was queued. */
function queueFigures(db: Db, table: 'email_outbox' | 'webhook_deliveries') {
  return db
    .selectFrom(table)
    .select([
      sql<number>`count(*) FILTER (WHERE delivered_at IS NULL AND failed_at IS NULL)::int`.as(
        'pending',
      ),
      sql<number>`count(*) FILTER (WHERE failed_at IS NOT NULL)::int`.as('failed'),
      sql<Date | null>`min(created_at) FILTER (WHERE delivered_at IS NULL AND failed_at IS NULL)`.as(
        'oldest',
      ),
    ])
    .executeTakeFirstOrThrow();
}
