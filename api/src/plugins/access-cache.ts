import type { Role } from '@meterline/domain';

/** What the access guard found for a session (and, on organization routes, the caller's membership). */
export interface SessionAccess {
  user_id: string;
  email: string;
  name: string;
  created_at: Date;
  expires_at: Date;
  organization_id: string | null;
  role: Role | null;
}

/**
 * The access guard's recent answers, for the embedded database only: it is single-process, so every change
 * to sessions goes through this process and drops what it touches here (sign-out forgets the session at
 * once), and an expired session is refused from its own expiry. A change of memberships or organization
 * slugs, by any statement, is announced by the database at commit (migration 0011) and forgets every answer
 * (`clear`). With a PostgreSQL server, several instances may share the store, so nothing is kept and every
 * request asks the database.
 */
export class AccessCache {
  private readonly entries = new Map<string, { access: SessionAccess; at: number }>();
  private currentEpoch = 0;

  /** `elapsed` measures the entries' age in real time, whatever clock the product runs on. */
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly elapsed: () => number = () => performance.now(),
  ) {}

  /** The kept answer for a session (and organization slug, '' for none), unless old or expired at `now`. */
  get(sessionId: string, slug: string, now: Date): SessionAccess | undefined {
    const key = `${sessionId}|${slug}`;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.elapsed() - entry.at >= this.ttlMs || entry.access.expires_at <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.access;
  }

  /**
   * Counts the clears. An answer is kept only under the epoch it was read in: one read just before a
   * change committed would otherwise be kept after the clear that should have dropped it.
   */
  get epoch(): number {
    return this.currentEpoch;
  }

  /** Keeps a live session's answer read in `epoch`; a session not found is never kept. */
  set(sessionId: string, slug: string, access: SessionAccess, epoch: number): void {
    if (epoch !== this.currentEpoch) return;
    this.entries.set(`${sessionId}|${slug}`, { access, at: this.elapsed() });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** Forgets every answer: who may access what has changed. */
  clear(): void {
    this.currentEpoch++;
    this.entries.clear();
  }

  forgetSession(sessionId: string): void {
    for (const key of this.entries.keys()) {
      if (key.startsWith(`${sessionId}|`)) this.entries.delete(key);
    }
  }
}
