import type {
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
  RateLimitOptions,
} from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { RateLimitCounters } from '../repositories/rate-limits.ts';

/**
 * A route's rate limit per signed-in user (a route's `config.rateLimit`): counted once the access guard
 * knows the user (preValidation runs the guard first), so every account has its own count however many
 * addresses it comes from, and a request refused for want of a session counts for nobody. Without a
 * user (a public route), per address. Over the limit: 429 with Retry-After.
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

/** What @fastify/rate-limit hands a route's store: the merged options and the route. */
interface RouteStoreOptions {
  timeWindow?: unknown;
  routeInfo?: { method?: unknown; url?: unknown };
}

/**
 * @fastify/rate-limit's store over the database's counters (repositories/rate-limits.ts), so a route's
 * limit is one count across every process on the database rather than one per process. Each route counts
 * apart (its method and path name the limit). Windows follow the wall clock, as the plugin's own memory
 * store does.
 */
export function sharedRateLimitStore(counters: RateLimitCounters): FastifyRateLimitStoreCtor {
  class SharedRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options: unknown,
      private readonly limit = 'route',
      private readonly windowMs = 60_000,
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow?: number,
    ): void {
      const now = new Date();
      counters.hit({ limit: this.limit, subject: key }, timeWindow ?? this.windowMs, now).then(
        (hit) =>
          callback(null, {
            current: hit.hits,
            ttl: Math.max(0, hit.expiresAt.getTime() - now.getTime()),
          }),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: object): FastifyRateLimitStore {
      const { timeWindow, routeInfo } = routeOptions as RouteStoreOptions;
      const methods = routeInfo?.method;
      const method = Array.isArray(methods)
        ? methods.join(',')
        : typeof methods === 'string'
          ? methods
          : '';
      const url = typeof routeInfo?.url === 'string' ? routeInfo.url : '';
      return new SharedRateLimitStore(
        undefined,
        method && url ? `route ${method} ${url}` : this.limit,
        typeof timeWindow === 'number' ? timeWindow : this.windowMs,
      );
    }
  }
  return SharedRateLimitStore;
}
