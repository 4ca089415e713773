import { FailureLimiter } from '../../lib/failure-limiter.ts';

const MINUTE = 60;

/** An admitted sign-in attempt: counted as a failure unless it succeeds. */
export interface SignInAttempt {
  succeeded(): void;
}

export type SignInAdmission =
  { ok: true; attempt: SignInAttempt } | { ok: false; retryAfter: number };

/**
 * How many failed sign-ins are allowed, and for whom. The strict limits follow the one guessing: per email
 * from one address, and per address over all emails, so a stranger's failures lock out the stranger, not
 * the owner signing in from elsewhere. The per-email limit over all addresses is much higher and short: it
 * only slows a guess spread over many addresses, and the owner it catches waits a minute at most.
 */
export class SignInLimits {
  private readonly byPair: FailureLimiter;
  private readonly byAddress: FailureLimiter;
  private readonly byEmail: FailureLimiter;

  constructor(now: () => number) {
    this.byPair = new FailureLimiter(5, 15 * MINUTE, now);
    this.byAddress = new FailureLimiter(20, 15 * MINUTE, now);
    this.byEmail = new FailureLimiter(10, MINUTE, now);
  }

  /**
   * Counts the attempt before the password is checked, in every limit or none: requests sent side by side
   * each take a slot, so no more passwords are checked than the limits allow.
   */
  admit(email: string, address: string): SignInAdmission {
    const pair = `${email}\n${address}`;
    const counts = [
      { limiter: this.byPair, key: pair },
      { limiter: this.byAddress, key: address },
      { limiter: this.byEmail, key: email },
    ];
    const retryAfter = Math.max(...counts.map(({ limiter, key }) => limiter.retryAfter(key)));
    if (retryAfter > 0) return { ok: false, retryAfter };
    const reservations = counts.map(({ limiter, key }) => limiter.reserve(key));
    return {
      ok: true,
      attempt: {
        succeeded: () => {
          for (const reservation of reservations) reservation.release();
          // Whoever signs in here knows the password: their earlier slips from this address are forgiven.
          this.byPair.forget(pair);
        },
      },
    };
  }
}
