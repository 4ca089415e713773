import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';

/** A finished answer: the serialized body and the headers its route set. */
interface Answer {
  body: string;
  contentType: string;
  headers: Record<string, string>;
}

/**
 * Finished answers of the billing page's reads (routes with `config.readCache`), for the embedded database
 * only, whose writes all go through this process. An answer is kept per caller (user and role, or access
 * token), organization, address and second: those reads compute at the start of their second (`readTime`),
 * so a kept answer is what any moment of that second would compute. A write to any of the
 * organization's billing tables is announced at its commit, before the writer's call returns (migration
 * 0029), and forgets the organization's answers, so a read after a write sees it.
 *
 * An answer is kept only under the organization's version it started in: one computed while a write
 * committed between its statements could mix before and after, and is sent but not kept.
 */
export class ReadCache {
  private readonly entries = new Map<string, Answer & { version: string }>();
  private readonly versions = new Map<string, number>();
  private readonly filling = new Map<
    string,
    { version: string; answer: Promise<Answer | undefined> }
  >();
  private epoch = 0;
  /** The second the kept answers are of: answers of a second that has passed are all dropped. */
  private second = Number.NaN;

  constructor(
    private readonly maxEntries = 2_000,
    /** Longer answers (in characters) are not kept (none of the billing page's is near it). */
    private readonly maxBodyLength = 256 * 1024,
    /** Past this many organizations changed, their counts start again (every kept answer dropped). */
    private readonly maxVersions = 100_000,
  ) {}

  /** What this process knows of the organization's billing data: it moves at every announced write. */
  versionOf(organizationId: string): string {
    return `${this.epoch}.${this.versions.get(organizationId) ?? 0}`;
  }

  /** The answer kept for `key` in `second`, if its organization has not changed since. */
  get(key: string, organizationId: string, second: number): Answer | undefined {
    if (second !== this.second) {
      this.entries.clear();
      this.second = second;
      return undefined;
    }
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.version !== this.versionOf(organizationId)) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Keeps an answer of `second` read under `version`, unless the organization changed since. */
  set(
    key: string,
    organizationId: string,
    version: string,
    second: number,
    answer: Answer,
  ): boolean {
    if (version !== this.versionOf(organizationId) || second !== this.second) return false;
    if (answer.body.length > this.maxBodyLength) return false;
    this.entries.delete(key);
    this.entries.set(key, { ...answer, version });
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return true;
  }

  /**
   * The answer another request is computing for `key` under the organization's current version, if any:
   * concurrent requests for an answer that just expired wait for one computation instead of each making
   * their own. It settles undefined when that answer is not kept (a write came meanwhile, an error).
   */
  pending(key: string, organizationId: string): Promise<Answer | undefined> | undefined {
    const fill = this.filling.get(key);
    return fill && fill.version === this.versionOf(organizationId) ? fill.answer : undefined;
  }

  /** Announces a computation of `key`; `settle` must be called once it ends, whatever its outcome. */
  startFill(key: string, version: string): (answer: Answer | undefined) => void {
    let settle: (answer: Answer | undefined) => void = () => undefined;
    const answer = new Promise<Answer | undefined>((resolve) => {
      settle = resolve;
    });
    const fill = { version, answer };
    this.filling.set(key, fill);
    return (result) => {
      if (this.filling.get(key) === fill) this.filling.delete(key);
      settle(result);
    };
  }

  /** A committed write changed this organization's billing data ('' for every organization). */
  changed(organizationId: string): void {
    if (organizationId === '' || this.versions.size >= this.maxVersions) {
      this.epoch++;
      this.versions.clear();
      this.entries.clear();
      return;
    }
    this.versions.set(organizationId, (this.versions.get(organizationId) ?? 0) + 1);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** The route headers an answer keeps besides its type (the invoice list's count). */
const KEPT_HEADERS = ['x-total-count', 'access-control-expose-headers'];

type Fill = {
  key: string;
  second: number;
  organizationId: string;
  version: string;
  settle: (answer: Answer | undefined) => void;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The kept answers, or null when nothing is kept (a PostgreSQL server, READ_CACHE=off). */
    readCache: ReadCache | null;
  }
  interface FastifyContextConfig {
    /** A GET of an organization's billing data whose answer may be kept (see ReadCache). */
    readCache?: true;
  }
  interface FastifyRequest {
    readCacheFill: Fill | null;
    /** The time a route with `config.readCache` reads at: its second, which its kept answer is of. */
    readAt: Date | null;
  }
}

/** The time a kept read is computed at (see `readAt`); the clock's time elsewhere. */
export function readTime(request: FastifyRequest, clock: Clock): Date {
  return request.readAt ?? clock.now();
}

/**
 * What the answer depends on besides the caller: the route, its validated parameters and, when it declares
 * them, its validated query parameters (an unknown parameter is not part of the answer, so not of its key).
 */
function addressOf(request: FastifyRequest): string {
  const query = request.routeOptions.schema?.querystring ? JSON.stringify(request.query) : '';
  return `${request.routeOptions.url}|${JSON.stringify(request.params)}|${query}`;
}

/** The caller an answer is kept for: its body may depend on who asks. */
function callerOf(request: FastifyRequest): string | undefined {
  if (request.accessToken) return `token:${request.accessToken.id}`;
  if (request.user && request.org?.role) return `user:${request.user.id}:${request.org.role}`;
  return undefined;
}

/**
 * Serves kept answers after the access guard and validation (preHandler), and keeps the answers of the
 * routes that opt in (onSend, where the body is serialized). Without a cache (a PostgreSQL server, which
 * other processes write too) it does nothing.
 */
export const readCachePlugin = fp<{ cache: ReadCache | null; clock: Clock }>(
  async (app, { cache, clock }) => {
    app.decorateRequest('readCacheFill', null);
    app.decorateRequest('readAt', null);
    app.decorate('readCache', cache);
    // A kept answer is sent from this plugin's preHandler: a route's own would be skipped.
    app.addHook('onRoute', (route) => {
      if (route.config?.readCache && route.preHandler) {
        throw new Error(`${route.url}: a route whose answers are kept cannot have a preHandler`);
      }
    });

    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.routeOptions.config.readCache) return;
      // The whole second: a kept answer is exactly what any moment of its second computes.
      const second = Math.floor(clock.now().getTime() / 1000);
      request.readAt = new Date(second * 1000);
      const org = request.org;
      const caller = callerOf(request);
      if (!cache || request.method !== 'GET' || !org || !caller) return;
      const key = `${caller}|${org.organizationId}|${second}|${addressOf(request)}`;
      const kept =
        cache.get(key, org.organizationId, second) ??
        (await cache.pending(key, org.organizationId));
      if (!kept) {
        const version = cache.versionOf(org.organizationId);
        const settle = cache.startFill(key, version);
        request.readCacheFill = {
          key,
          second,
          organizationId: org.organizationId,
          version,
          settle,
        };
        return;
      }
      for (const [name, value] of Object.entries(kept.headers)) reply.header(name, value);
      reply.type(kept.contentType);
      return reply.send(kept.body);
    });

    if (!cache) return;
    app.addHook('onSend', async (request, reply, payload) => {
      const fill = request.readCacheFill;
      if (!fill) return payload;
      const contentType = reply.getHeader('content-type');
      if (
        reply.statusCode !== 200 ||
        typeof payload !== 'string' ||
        typeof contentType !== 'string'
      ) {
        fill.settle(undefined);
        return payload;
      }
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      const answer = { body: payload, contentType, headers };
      const kept = cache.set(fill.key, fill.organizationId, fill.version, fill.second, answer);
      fill.settle(kept ? answer : undefined);
      return payload;
    });
    // Whatever ended the request (an abort, a failure before sending), its waiters go on by themselves.
    const settle = async (request: FastifyRequest) => request.readCacheFill?.settle(undefined);
    app.addHook('onResponse', settle);
    app.addHook('onRequestAbort', settle);
  },
  { name: 'read-cache', dependencies: ['access'] },
);
