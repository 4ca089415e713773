/** A counted attempt: kept as a failure unless released. */
export interface Reservation {
  release(): void;
}

/** Beyond this many keys, the stale ones are swept (an attack on many emails must not grow memory forever). */
const SWEEP_ABOVE_KEYS = 10_000;

/**
 * Counts attempts per key (an email, an address) in a sliding window. An attempt is counted when it starts,
 * before the password is checked, so attempts running side by side cannot all slip under the limit; a
 * successful one is released and so only failures stay counted. A full key waits until its oldest counted
 * attempt leaves the window: never longer than the window. Kept in memory: a restart forgets, which only
 * ever errs on the side of letting a user in.
 */
export class FailureLimiter {
  private readonly attempts = new Map<string, { at: number }[]>();

  constructor(
    readonly limit: number,
    readonly windowSeconds: number,
    private readonly now: () => number,
  ) {}

  /** Seconds until the key may try again, or 0 when it may now. */
  retryAfter(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit) return 0;
    const oldest = recent[recent.length - this.limit]?.at ?? this.now();
    return Math.max(1, Math.ceil(oldest + this.windowSeconds - this.now()));
  }

  /**
   * Counts an attempt now. Synchronous, so two requests of one process never both take the last slot;
   * the caller checks `retryAfter` of every key it counts before reserving any.
   */
  reserve(key: string): Reservation {
    if (this.attempts.size > SWEEP_ABOVE_KEYS) this.sweep();
    const attempt = { at: this.now() };
    const recent = this.recent(key);
    recent.push(attempt);
    this.attempts.set(key, recent);
    return {
      release: () => {
        const current = this.attempts.get(key);
        const index = current?.indexOf(attempt) ?? -1;
        if (!current || index < 0) return;
        current.splice(index, 1);
        if (current.length === 0) this.attempts.delete(key);
      },
    };
  }

  forget(key: string): void {
    this.attempts.delete(key);
  }

  private recent(key: string): { at: number }[] {
    const since = this.now() - this.windowSeconds;
    const recent = (this.attempts.get(key) ?? []).filter((attempt) => attempt.at > since);
    if (recent.length === 0) this.attempts.delete(key);
    else this.attempts.set(key, recent);
    return recent;
  }

  private sweep(): void {
    for (const key of [...this.attempts.keys()]) this.recent(key);
  }
}
