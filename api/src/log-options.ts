import type { FastifyRequest, FastifyServerOptions } from 'fastify';

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

/** The server's logger: pino at `level`, with no secret path segment in any line it writes. */
export function logOptions(level: string, stream?: LogStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
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
