import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** Whom a limit counts: the limit's name and the subject (an address, an email, a user, a route's key). */
export interface RateLimitKey {
  limit: string;
  subject: string;
}

/** A counted hit: the key's count in its window, this hit included, and when that window ends. */
export interface RateLimitHit {
  key: string;
  hits: number;
  windowStartedAt: Date;
  expiresAt: Date;
}

/** Expired windows are deleted at most this often by each process, on a hit. */
const SWEEP_EVERY_MS = 60_000;

/**
 * The row's key: the limit's name stays readable; the subject is digested, so the table holds no email or
 * address and every key has one length.
 */
const rowKey = ({ limit, subject }: RateLimitKey) =>
  `${limit}:${createHash('sha256').update(subject).digest('base64url')}`;

/** Whole seconds from `now` until `until`, at least 1: what a Retry-After says. */
export function secondsUntil(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}

/**
 * The security limits' counts, in the database, so every process on it sees one count per key (fixed
 * windows: a key's window starts at its first hit and lasts the limit's window). Each hit is one atomic
 * statement, so requests side by side, in one process or several, each get a count of their own.
 */
export class RateLimitCounters {
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly sweepEveryMs = SWEEP_EVERY_MS,
  ) {}

  /**
   * Counts one hit and answers the count, this hit included: one INSERT … ON CONFLICT DO UPDATE, which
   * starts a new window (count 1) when the key's window has ended. Now and then (once a minute per process)
   * the hit also deletes the windows that have ended, so the table holds the live keys only.
   */
  async hit(key: RateLimitKey, windowMs: number, now: Date): Promise<RateLimitHit> {
    const id = rowKey(key);
    const expired = sql<boolean>`rate_limit_windows.expires_at <= ${now}::timestamptz`;
    const row = await this.db
      .insertInto('rate_limit_windows')
      .values({
        key: id,
        hits: 1,
        window_started_at: now,
        expires_at: new Date(now.getTime() + windowMs),
      })
      .onConflict((conflict) =>
        conflict.column('key').doUpdateSet({
          hits: sql<number>`CASE WHEN ${expired} THEN 1 ELSE rate_limit_windows.hits + 1 END`,
          window_started_at: sql<Date>`CASE WHEN ${expired}
            THEN excluded.window_started_at ELSE rate_limit_windows.window_started_at END`,
          expires_at: sql<Date>`CASE WHEN ${expired}
            THEN excluded.expires_at ELSE rate_limit_windows.expires_at END`,
        }),
      )
      .returning(['hits', 'window_started_at', 'expires_at'])
      .executeTakeFirstOrThrow();
    await this.sweep(now);
    return {
      key: id,
      hits: row.hits,
      windowStartedAt: row.window_started_at,
      expiresAt: row.expires_at,
    };
  }

  /** Uncounts a hit (a success that is not held against anyone), within its own window only. */
  async takeBack(hit: RateLimitHit): Promise<void> {
    await this.db
      .updateTable('rate_limit_windows')
      .set({ hits: sql<number>`hits - 1` })
      .where('key', '=', hit.key)
      .where('window_started_at', '=', hit.windowStartedAt)
      .where('hits', '>', 0)
      .execute();
  }

  /** Forgets a key's count. */
  async clear(key: RateLimitKey): Promise<void> {
    await this.db.deleteFrom('rate_limit_windows').where('key', '=', rowKey(key)).execute();
  }

  /** The key's count in its live window, without counting: 0 when it has none. */
  async peek(key: RateLimitKey, now: Date): Promise<{ hits: number; expiresAt: Date }> {
    const row = await this.db
      .selectFrom('rate_limit_windows')
      .select(['hits', 'expires_at'])
      .where('key', '=', rowKey(key))
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row ? { hits: row.hits, expiresAt: row.expires_at } : { hits: 0, expiresAt: now };
  }

  /**
   * Deletes the windows that have ended, once every `sweepEveryMs` in this process. Failure counts follow
   * the server's clock and request ceilings the wall clock (they are one clock outside tests), so a
   * window goes only once it has ended by both: deleting it changes nothing, as its next hit would
   * start afresh anyway.
   */
  private async sweep(now: Date): Promise<void> {
    const wall = Date.now();
    if (wall - this.lastSweep < this.sweepEveryMs) return;
    this.lastSweep = wall;
    await deleteEndedRateLimitWindows(this.db, new Date(Math.min(wall, now.getTime())));
  }
}

/** At most this many ended windows go in one sweep, so no request carries a long delete. */
const SWEEP_BATCH = 10_000;

/**
 * Deletes windows that ended by `before` (up to a batch); answers how many. Rows another statement holds
 * (a hit starting a new window) are skipped, so two processes sweeping at once never wait on each other.
 */
export async function deleteEndedRateLimitWindows(db: Db, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('rate_limit_windows')
    .where('key', 'in', (eb) =>
      eb
        .selectFrom('rate_limit_windows')
        .select('key')
        .where('expires_at', '<=', before)
        .limit(SWEEP_BATCH)
        .forUpdate()
        .skipLocked(),
    )
    .where('expires_at', '<=', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
