import type { ExpressionBuilder } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** The first retry of a failed item waits this long; each further failure doubles it, up to the cap. */
export const FIRST_BACKOFF_MS = 60_000;
export const MAX_BACKOFF_MS = 6 * 60 * 60_000;

export type JobItemKind =
  | 'close_cycle'
  | 'collect'
  | 'reconcile'
  | 'refund'
  | 'overdue'
  | 'usage_restriction'
  | 'card_expiry'
  | 'spend_alert';

export interface JobItemError {
  kind: JobItemKind;
  id: string;
  message: string;
}

export function backoffMs(failures: number): number {
  return Math.min(FIRST_BACKOFF_MS * 2 ** Math.max(0, failures - 1), MAX_BACKOFF_MS);
}

/**
 * One bad item (an organization whose cycle cannot close, a card the provider chokes on) never stops the
 * billing job for everyone else: each item runs on its own, a failure is recorded with its reason in
 * `billing_job_failures`, the item waits out an exponential backoff, and the job goes on. Backoff times
 * are wall-clock time; a success forgets the item's failures.
 */
export class JobFailures {
  readonly errors: JobItemError[] = [];
  deferred = 0;

  private constructor(
    private readonly db: Db,
    private readonly now: () => Date,
    private readonly known: Map<string, Date>,
    private readonly honourBackoff: boolean,
  ) {}

  static async load(
    db: Db,
    now: () => Date,
    options: { honourBackoff: boolean },
  ): Promise<JobFailures> {
    const rows = await db
      .selectFrom('billing_job_failures')
      .select(['kind', 'item_id', 'retry_after'])
      .execute();
    const known = new Map(rows.map((row) => [`${row.kind}:${row.item_id}`, row.retry_after]));
    return new JobFailures(db, now, known, options.honourBackoff);
  }

  /** Runs one item; answers its result, or undefined when it failed or waits out its backoff. */
  async isolate<T>(
    kind: JobItemKind,
    id: string,
    organizationId: string | null,
    run: () => Promise<T>,
  ): Promise<T | undefined> {
    const name = `${kind}:${id}`;
    const retryAfter = this.known.get(name);
    if (this.honourBackoff && retryAfter && retryAfter > this.now()) {
      this.deferred++;
      return undefined;
    }
    try {
      const result = await run();
      if (retryAfter) {
        await this.db
          .deleteFrom('billing_job_failures')
          .where('kind', '=', kind)
          .where('item_id', '=', id)
          .execute();
        this.known.delete(name);
      }
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.errors.push({ kind, id, message });
      await this.record(kind, id, organizationId, message);
      return undefined;
    }
  }

  private async record(
    kind: JobItemKind,
    id: string,
    organizationId: string | null,
    message: string,
  ): Promise<void> {
    const now = this.now();
    const previous = await this.db
      .selectFrom('billing_job_failures')
      .select('failures')
      .where('kind', '=', kind)
      .where('item_id', '=', id)
      .executeTakeFirst();
    const failures = (previous?.failures ?? 0) + 1;
    const retryAfter = new Date(now.getTime() + backoffMs(failures));
    await this.db
      .insertInto('billing_job_failures')
      .values({
        kind,
        item_id: id,
        organization_id: organizationId,
        failures,
        last_error: message.slice(0, 2000),
        first_failed_at: now,
        last_failed_at: now,
        retry_after: retryAfter,
      })
      .onConflict((conflict) =>
        conflict.columns(['kind', 'item_id']).doUpdateSet({
          failures,
          last_error: message.slice(0, 2000),
          last_failed_at: now,
          retry_after: retryAfter,
        }),
      )
      .execute();
    this.known.set(`${kind}:${id}`, retryAfter);
  }
}

/** Where-clause of a sweep over charges: leaves out those waiting out the backoff of a failure. */
export function notBackingOff(kind: JobItemKind, now: Date) {
  return ({ not, exists, selectFrom }: ExpressionBuilder<Database, 'charges'>) =>
    not(
      exists(
        selectFrom('billing_job_failures')
          .select('billing_job_failures.item_id')
          .whereRef('billing_job_failures.item_id', '=', 'charges.id')
          .where('billing_job_failures.kind', '=', kind)
          .where('billing_job_failures.retry_after', '>', now),
      ),
    );
}
