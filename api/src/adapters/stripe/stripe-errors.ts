import Stripe from 'stripe';
import { Failure } from '../../lib/failure.ts';
import { ProviderKeyRefusedError, ProviderUnavailableError } from '../payment-gateway.ts';

/**
 * A 4xx the provider answered: it refused the request (a bad parameter, a card declined; our key
 * refused is a ProviderKeyRefusedError instead). The caller reads the provider's message with our status: 402 for a card's refusal, 400 for
 * the rest. Sending the same request again would be refused again, so it is no outage.
 */
export class ProviderRefusedError extends Failure {
  constructor(
    readonly providerStatus: number,
    message: string,
    options?: ErrorOptions,
  ) {
    super(providerStatus === 402 ? 'payment_failed' : 'invalid', message, options);
  }
}

/**
 * Statuses the provider asks to be retried (a conflicting request in flight, its rate limit): answered
 * as an outage, which says the same request again is safe.
 */
const RETRIED_STATUSES = new Set([409, 429]);

/** The provider refused the request (a 4xx it asks not to retry): its error, else null. */
export function providerRefusal(
  error: unknown,
): InstanceType<typeof Stripe.errors.StripeError> | null {
  if (!(error instanceof Stripe.errors.StripeError)) return null;
  const status = error.statusCode;
  if (status === undefined || status < 400 || status >= 500 || RETRIED_STATUSES.has(status)) {
    return null;
  }
  return error;
}

/** The provider refused our key (a wrong or revoked secret key, a restricted one): the operator's to fix. */
export function keyRefused(error: InstanceType<typeof Stripe.errors.StripeError>): boolean {
  return error.statusCode === 401 || error.statusCode === 403;
}

/**
 * What a failed call to the provider is: its refusal (a 4xx, with its message), or an outage (no
 * answer, a 5xx, a retry asked), after which nothing is known and the same request again is safe.
 */
export function providerFailure(error: unknown): Failure {
  const refusal = providerRefusal(error);
  if (refusal && keyRefused(refusal)) {
    // Its message quotes our key (masked): kept out of the error, its answer and the log.
    return new ProviderKeyRefusedError(
      `The payment provider refused our secret key (HTTP ${refusal.statusCode ?? 401}, ${refusal.type}).`,
    );
  }
  if (refusal) {
    const status = refusal.statusCode ?? 400;
    // A card's refusal is the customer's to read as it is ("Your card was declined.").
    const message =
      status === 402
        ? refusal.message
        : `The payment provider refused the request: ${refusal.message}`;
    return new ProviderRefusedError(status, message, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderUnavailableError(`The payment provider failed: ${message}`, { cause: error });
}
