import type { RateLimitOptions } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';

/**
 * A route's rate limit per signed-in user (a route's `config.rateLimit`): counted once the access guard
 * knows the user (preValidation runs the guard first), so every account has its own count however many
 * addresses it comes from, and a request refused for want of a session counts for nobody. Over the limit:
 * 429 with Retry-After.
 */
export function perUserRateLimit(max: number, timeWindow: string): RateLimitOptions {
  return {
    max,
    timeWindow,
    hook: 'preValidation',
    keyGenerator: (request: FastifyRequest) =>
      request.user ? `user:${request.user.id}` : `address:${request.ip}`,
  };
}
