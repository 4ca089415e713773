/**
 * What a service answers when it refuses or cannot do what it was asked: a machine-readable code and a
 * message safe to show the caller. Services know nothing of HTTP; the error plugin (plugins/errors.ts)
 * maps each code to its status once, and the CLI prints the message.
 */
export type FailureCode =
  /** The request cannot be done as asked (a stale proration date, an unknown project ref, a failed captcha). */
  | 'invalid'
  /** The payment was declined or failed. */
  | 'payment_failed'
  /** The caller may not do this (a role or a partner decides). */
  | 'forbidden'
  /** The thing named does not exist, or not for this caller. */
  | 'not_found'
  /** The state of things refuses it (already changed, in progress, expired, reused key). */
  | 'conflict'
  /** Too many attempts; the caller waits. */
  | 'too_many_attempts'
  /** The payment provider failed or did not answer in time; the same request again is safe. */
  | 'provider_unavailable';

/** Answered alike whether the organization does not exist or the caller is not its member. */
export const NOT_FOUND_ORG = 'Organization not found';

export class Failure extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'Failure';
  }
}

/** A refusal the domain's rules answer (`planChangeRefusal`, `spendCapRefusal`), as a failure. */
export function refusalFailure(refusal: { status: 400 | 403 | 409; message: string }): Failure {
  const code =
    refusal.status === 403 ? 'forbidden' : refusal.status === 400 ? 'invalid' : 'conflict';
  return new Failure(code, refusal.message);
}
