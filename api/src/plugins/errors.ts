import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import { ProviderKeyRefusedError } from '../adapters/payment-gateway.ts';
import { Failure, type FailureCode } from '../lib/failure.ts';

/**
 * The status each failure a service answers with (lib/failure.ts) maps to: the one place a service's
 * failure becomes HTTP.
 */
const FAILURE_STATUS: Record<FailureCode, number> = {
  invalid: 400,
  payment_failed: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_attempts: 429,
  provider_unavailable: 503,
};

/**
 * An error a route or plugin answers with (the request itself is refused: a missing session, a bad
 * header); its message is safe to show the caller. Services answer a `Failure` instead.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The service is briefly unavailable. Please try again in a moment.';

/**
 * The payment provider failed or did not answer in time: whatever it did is settled later (its event,
 * the billing job), and the same request with the same Idempotency-Key is safe to send again. A 503 says
 * so; a 500 would say the fault was ours.
 */
export const PROVIDER_UNAVAILABLE_MESSAGE =
  'The payment provider did not answer. Please try again in a moment.';

// zod's own messages do not say which field they are about; the product's rule messages do.
const GENERIC_MESSAGE = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;

function describeIssue(instancePath: string, message: string, context: string): string {
  if (!GENERIC_MESSAGE.test(message)) return message;
  const field = instancePath.replace(/^\//, '').replaceAll('/', '.') || context;
  return field ? `${field}: ${message}` : message;
}

/** Every error answers JSON {"message"}; bad input is a 400 that names the field, never a 5xx. */
export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | HttpError | Failure, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ message: error.message });
    }
    if (error instanceof Failure && error.code === 'provider_unavailable') {
      // Our key refused is ours to fix at once; the client sees an outage, never the provider's words.
      if (error instanceof ProviderKeyRefusedError) {
        request.log.error({ err: error }, 'payment provider refused our secret key');
      } else request.log.warn({ err: error }, 'payment provider unavailable');
      return reply
        .code(FAILURE_STATUS.provider_unavailable)
        .header('retry-after', '30')
        .send({ message: PROVIDER_UNAVAILABLE_MESSAGE });
    }
    if (error instanceof Failure) {
      return reply.code(FAILURE_STATUS[error.code]).send({ message: error.message });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      const message = first
        ? describeIssue(
            first.instancePath,
            first.message ?? 'Invalid value',
            error.validationContext ?? '',
          )
        : 'Invalid request';
      return reply.code(400).send({ message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ message: error.message });
    }
    if (isDatabaseUnavailable(error)) {
      // A restart or failover of the database: nothing after the fault committed, and the pool
      // reconnects; the same request again (with its Idempotency-Key) is safe.
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ message: DATABASE_UNAVAILABLE_MESSAGE });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });
});
