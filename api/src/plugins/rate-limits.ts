import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

/**
 * A route's rate limit per signed-in user (a route's `config.rateLimit`): counted once the access guard
 * knows the user (preValidation runs the guard first), so every account has its own count however many
 * addresses it comes from, and a request refused for want of a session counts for nobody. Over the limit:
 * 429 with Retry-After.
 */
export function perUserRateLimit(
  max: number,
  timeWindow: string,
  hook: 'preValidation' | 'preHandler' = 'preValidation',
): RateLimitOptions {
  return {
    max,
    timeWindow,
    hook,
    keyGenerator: (request: FastifyRequest) =>
      request.user ? `user:${request.user.id}` : `address:${request.ip}`,
  };
}

/**
 * A CSV export reads a whole range and streams it: 10 a minute for each user and export (an access token
 * counts by its address), so that nobody's exports slow everyone else's reads. Counted once the request is
 * valid (validation is cheap; the export is what costs), so a mistyped range does not use up the minute.
 */
export const EXPORT_RATE_LIMIT = perUserRateLimit(10, '1 minute', 'preHandler');
