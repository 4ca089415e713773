import {
  secondsUntil,
  type RateLimitCounters,
  type RateLimitHit,
  type RateLimitKey,
} from '../../repositories/rate-limits.ts';

const MINUTE_MS = 60_000;

/** An admitted sign-in attempt: counted as a failure unless it succeeds. */
export interface SignInAttempt {
  succeeded(): Promise<void>;
}

export type SignInAdmission =
  { ok: true; attempt: SignInAttempt } | { ok: false; retryAfter: number };

/**
 * How many failed sign-ins are allowed, and for whom. The strict limits follow the one guessing: per email
 * from one address, and per address over all emails, so a stranger's failures lock out the stranger, not
 * the owner signing in from elsewhere. The per-email limit over all addresses is much higher and short: it
 * only slows a guess spread over many addresses, and the owner it catches waits a minute at most. Counted
 * in the database (repositories/rate-limits.ts), so the limits are one for every process on it.
 */
export class SignInLimits {
  constructor(
    private readonly counters: RateLimitCounters,
    private readonly now: () => Date,
  ) {}

  /**
   * Counts the attempt before the password is checked, in every limit or none: requests sent side by side
   * each take a slot (one atomic statement each), so no more passwords are checked than the limits allow.
   * The strictest limit is counted first; an attempt a limit refuses takes back what it counted, so a
   * stranger refused for the pair does not use up the owner's per-email count.
   */
  async admit(email: string, address: string): Promise<SignInAdmission> {
    const now = this.now();
    const pair: RateLimitKey = { limit: 'sign-in-pair', subject: `${email}\n${address}` };
    const limits = [
      { key: pair, max: 5, windowMs: 15 * MINUTE_MS },
      { key: { limit: 'sign-in-address', subject: address }, max: 20, windowMs: 15 * MINUTE_MS },
      { key: { limit: 'sign-in-email', subject: email }, max: 10, windowMs: MINUTE_MS },
    ];
    const hits: RateLimitHit[] = [];
    for (const { key, max, windowMs } of limits) {
      const hit = await this.counters.hit(key, windowMs, now);
      hits.push(hit);
      if (hit.hits > max) {
        await this.takeBack(hits);
        return { ok: false, retryAfter: secondsUntil(hit.expiresAt, now) };
      }
    }
    return {
      ok: true,
      attempt: {
        succeeded: async () => {
          await this.takeBack(hits);
          // Whoever signs in here knows the password: their earlier slips from this address are forgiven.
          await this.counters.clear(pair);
        },
      },
    };
  }

  private async takeBack(hits: RateLimitHit[]): Promise<void> {
    for (const hit of hits) await this.counters.takeBack(hit);
  }
}
