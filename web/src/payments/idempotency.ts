import { useRef } from 'react';
import { ApiError } from '../data/api-client';

/**
 * The `Idempotency-Key` of a payment form. One key stands for one submission attempt: submitting
 * the same values again while the outcome is unknown (a double click, a retry after a network
 * error or a timeout) reuses it, so the server charges once. A definite answer (`settle`) or other
 * values (another amount, another card) start a new attempt with a new key.
 */
export function useIdempotencyKey() {
  const current = useRef<{ fingerprint: string; key: string } | null>(null);
  return {
    /** The key for submitting `values`; the same one until the attempt settles. */
    keyFor(values: unknown): string {
      const fingerprint = JSON.stringify(values);
      if (current.current?.fingerprint !== fingerprint) {
        current.current = { fingerprint, key: crypto.randomUUID() };
      }
      return current.current.key;
    },
    /** The server answered for good (success or a refusal): the next submit is a new attempt. */
    settle(): void {
      current.current = null;
    },
  };
}

/**
 * Whether an error leaves the outcome of a payment unknown, so that the attempt must be retried with
 * the same key: the request may or may not have reached the server (status 0) or it failed there.
 */
export function isOutcomeUnknown(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}
