import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  WEBHOOK_TOLERANCE_SECONDS,
  formatSignatureHeader,
  parseSignatureHeader,
  signedPayload,
} from '@meterline/domain';

/** A new signing secret: 32 random bytes, `whsec_` and base64url. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(signedPayload(timestamp, body)).digest('hex');
}

/** The `Meterline-Signature` header of a delivery: `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signWebhook(secret: string, timestamp: number, body: string): string {
  return formatSignatureHeader(timestamp, hmacHex(secret, timestamp, body));
}

/**
 * What a receiver does (decision 014 prints the same steps for a receiver without this package): the
 * header parses, its timestamp is within the tolerance of the receiver's clock (a captured request
 * cannot be replayed later), and one `v1` equals the HMAC of "t.body" over the exact bytes received,
 * compared in constant time.
 */
export function verifySignature(
  secret: string,
  header: string | null | undefined,
  body: string,
  nowSeconds: number = Math.floor(Date.now() / 1000),
  toleranceSeconds: number = WEBHOOK_TOLERANCE_SECONDS,
): boolean {
  const parsed = parseSignatureHeader(header);
  if (!parsed) return false;
  if (Math.abs(nowSeconds - parsed.timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, parsed.timestamp, body), 'hex');
  return parsed.signatures.some((signature) =>
    timingSafeEqual(expected, Buffer.from(signature, 'hex')),
  );
}
