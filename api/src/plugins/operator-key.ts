import { createHash, timingSafeEqual } from 'node:crypto';
import { FailureLimiter } from '../lib/failure-limiter.ts';

const FAILURES_PER_ADDRESS = 10;
const FAILURE_WINDOW_SECONDS = 15 * 60;

export type OperatorKeyVerdict = 'accepted' | 'refused' | { retryAfter: number };

// Digests have one length whatever was sent, so the comparison takes the same time for every guess and
// never tells the key's length (timingSafeEqual itself refuses buffers of different lengths).
const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * The metering key's check (`Authorization: Bearer METERING_API_KEY`): compared in constant time, and an
 * address that keeps sending wrong keys waits, so the key cannot be guessed at the speed of the network.
 */
export class OperatorKeyCheck {
  private readonly expected: Buffer | null;
  private readonly failures: FailureLimiter;

  constructor(key: string | undefined, now: () => number) {
    this.expected = key ? digest(`Bearer ${key}`) : null;
    this.failures = new FailureLimiter(FAILURES_PER_ADDRESS, FAILURE_WINDOW_SECONDS, now);
  }

  /** Synchronous, so no two requests of one address can both slip past its last failure. */
  verify(authorization: string | undefined, address: string): OperatorKeyVerdict {
    const retryAfter = this.failures.retryAfter(address);
    // A locked address is refused even with the right key: otherwise its answers would still tell.
    if (retryAfter > 0) return { retryAfter };
    if (this.expected && timingSafeEqual(digest(authorization ?? ''), this.expected)) {
      return 'accepted';
    }
    this.failures.reserve(address);
    return 'refused';
  }
}
