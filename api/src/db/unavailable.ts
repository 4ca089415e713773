/**
 * Whether an error means the database could not be reached or dropped the connection (a restart, a
 * failover, a full connection table), rather than a fault of the request or of our code. Such a request
 * did nothing that committed after the fault, and the same request again (with its Idempotency-Key,
 * where it has one) is safe: the server answers 503 and the pool reconnects on the next checkout.
 */

// admin_shutdown, crash_shutdown, cannot_connect_now, too_many_connections; class 08 is every
// connection exception.
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND']);
const DROPPED_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|terminating connection)/;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth += 1) {
    if (typeof cause !== 'object') return false;
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (UNAVAILABLE_CODES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code)) {
        return true;
      }
    }
    if (typeof message === 'string' && DROPPED_CONNECTION.test(message)) return true;
    // AggregateError (a refused connection to each address of a host) and wrapped causes.
    const { errors } = cause as { errors?: unknown };
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    cause = (cause as { cause?: unknown }).cause;
  }
  return false;
}
