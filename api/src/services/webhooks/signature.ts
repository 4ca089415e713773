import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  WEBHOOK_TOLERANCE_SECONDS,
  formatSignatureHeader,
  parseSignatureHeader,
  signedPayload,
} from '@meterline/domain';

const SECRET_PREFIX = 'whsec_';

/**
 * A new signing secret: `whsec_` and 32 random bytes in standard base64, the form the Standard Webhooks
 * libraries take as it is (`new Webhook(secret)`). Secrets made before were base64url; they keep working.
 */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

function hmacHex(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(signedPayload(timestamp, body)).digest('hex');
}

/**
 * The `Meterline-Signature` header of a delivery: `t=<unix>,v1=<hex HMAC-SHA256 of "t.body">`, keyed
 * with the secret's text as a whole; one `v1` per secret (two while a rotated secret is still valid).
 */
export function signWebhook(secrets: string | readonly string[], timestamp: number, body: string) {
  const keys = typeof secrets === 'string' ? [secrets] : secrets;
  return [
    formatSignatureHeader(timestamp, hmacHex(keys[0] ?? '', timestamp, body)),
    ...keys.slice(1).map((secret) => `v1=${hmacHex(secret, timestamp, body)}`),
  ].join(',');
}

/**
 * The Standard Webhooks key of a secret: the bytes its base64 part decodes to (Node's decoder reads
 * the base64url of older secrets too, so a receiver given one with `-`→`+` and `_`→`/` verifies).
 */
export function standardWebhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

/**
 * The `webhook-signature` header of the Standard Webhooks spec: `v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">` per secret, space-separated.
 */
export function signStandardWebhook(
  secrets: readonly string[],
  messageId: string,
  timestamp: number,
  body: string,
): string {
  return secrets
    .map((secret) => {
      const mac = createHmac('sha256', standardWebhookKey(secret))
        .update(`${messageId}.${timestamp}.${body}`)
        .digest('base64');
      return `v1,${mac}`;
    })
    .join(' ');
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
