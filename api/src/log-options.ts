import {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { PinoPretty } from 'pino-pretty';

// The simulator's 3-D Secure challenge id is the only thing that authorizes answering the challenge, and it
// travels in the path: a log line holding it would let whoever reads the logs approve a payment.
const SECRET_PATHS = /(\/platform\/simulator\/challenges\/)[^/?#\s"]+/g;

/** The text with every secret path segment replaced by `[redacted]`. */
export function redactSecretPaths(text: string): string {
  return text.replace(SECRET_PATHS, '$1[redacted]');
}

export interface LogStream {
  write(line: string): void;
}

export type LogFormat = 'json' | 'pretty';

/**
 * JSON lines for machines, unless chosen otherwise: readable lines only for a person at a terminal
 * outside production (`npm start`, `npm run dev`), never when the output goes to a file, a pipe or a
 * log collector.
 */
export function logFormat(
  config: { LOG_FORMAT?: LogFormat | undefined; NODE_ENV?: string | undefined },
  isTerminal: boolean = process.stdout.isTTY === true,
): LogFormat {
  if (config.LOG_FORMAT) return config.LOG_FORMAT;
  return config.NODE_ENV !== 'production' && isTerminal ? 'pretty' : 'json';
}

/**
 * Time, level and message on one line. Synchronous, in this thread: a worker transport would print after
 * the start-up block what was logged before it.
 */
function prettyStream(): LogStream {
  return PinoPretty({
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,reqId',
    singleLine: true,
    sync: true,
  });
}

/** The server's logger: pino at `level`, with no secret path segment in any line it writes. */
export function logOptions(
  level: string,
  stream?: LogStream,
  format: LogFormat = 'json',
): FastifyServerOptions['logger'] {
  // Pretty lines are written to standard output whatever stream JSON lines would take.
  const destination = format === 'pretty' ? prettyStream() : stream;
  return {
    level,
    ...(destination ? { stream: destination } : {}),
    serializers: {
      // Fastify's own request serializer, with the URL redacted.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactSecretPaths(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    hooks: {
      // Messages that quote a URL themselves (a route not found, a reply sent twice).
      logMethod(args, method) {
        const [first, ...rest] = args;
        if (typeof first === 'string') {
          method.apply(this, [redactSecretPaths(first), ...rest]);
        } else if (typeof rest[0] === 'string') {
          method.apply(this, [first, redactSecretPaths(rest[0]), ...rest.slice(1)]);
        } else {
          method.apply(this, args);
        }
      },
    },
  };
}

/**
 * `GET /platform/profile 200 4 ms`: one line per request, what a person reading a development server's
 * logs looks for, instead of Fastify's two objects. Errors are logged as before.
 */
class RequestLines extends LogController {
  override incomingRequest(): void {}

  // The request's own line says 404.
  override routeNotFound(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = `${request.method} ${redactSecretPaths(request.url)} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`;
    if (error) reply.log.error({ err: error }, line);
    else reply.log.info(line);
  }
}

/** What Fastify logs of each request, in this format. */
export function requestLogging(format: LogFormat): LogController {
  return format === 'pretty' ? new RequestLines() : new LogController();
}
