import { createHash, timingSafeEqual } from 'node:crypto';
import type { RateLimitCounters } from '../repositories/rate-limits.ts';
import { secondsUntil } from '../repositories/rate-limits.ts';

const FAILURES_PER_ADDRESS = 10;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;

export type OperatorKeyVerdict = 'accepted' | 'refused' | { retryAfter: number };

// Digests have one length whatever was sent, so the comparison takes the same time for every guess and
// never tells the key's length (timingSafeEqual itself refuses buffers of different lengths).
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The metering key's check (`Authorization: Bearer METERING_API_KEY`): compared in constant time, and an
 * address that keeps sending wrong keys waits, so the key cannot be guessed at the speed of the network.
 * The wrong keys are counted in the database, so the limit is one for every process on it.
 */
export class OperatorKeyCheck {
  private readonly expected: Buffer | null;

  constructor(
    key: string | undefined,
    private readonly counters: RateLimitCounters,
    private readonly now: () => Date,
  ) {
    this.expected = key ? digest(`Bearer ${key}`) : null;
  }

  /**
   * One statement decides, after the (cheap, synchronous) comparison: a wrong key is counted and learns
   * whether it was within the limit; the right key reads the count and is refused from a locked address
   * too (otherwise its answers would still tell). Each is atomic on the address's count, so however many
   * guesses arrive at once, in however many processes, no more than the limit are answered.
   */
  async verify(authorization: string | undefined, address: string): Promise<OperatorKeyVerdict> {
    const now = this.now();
    const key = { limit: 'operator-key', subject: address };
    if (this.expected && timingSafeEqual(digest(authorization ?? ''), this.expected)) {
      const failures = await this.counters.peek(key, now);
      if (failures.hits < FAILURES_PER_ADDRESS) return 'accepted';
      return { retryAfter: secondsUntil(failures.expiresAt, now) };
    }
    const failure = await this.counters.hit(key, FAILURE_WINDOW_MS, now);
    if (failure.hits <= FAILURES_PER_ADDRESS) return 'refused';
    return { retryAfter: secondsUntil(failure.expiresAt, now) };
  }
}
