import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { plainTextSchema, prefixedIdPattern, slugSchema } from './common.ts';

/** The events an endpoint can subscribe to (product decisions §12). */
export const WEBHOOK_EVENT_TYPES = [
  'invoice.finalized',
  'invoice.paid',
  'invoice.payment_failed',
  'subscription.updated',
  'spend_alert.triggered',
  'restriction.updated',
  'credits.topped_up',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What the test event is called; it goes to the endpoint it is sent to, whatever it subscribes to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'invoice.finalized': 'An invoice is finalized',
  'invoice.paid': 'An invoice is paid',
  'invoice.payment_failed': 'An automatic payment fails',
  'subscription.updated': 'The plan or the spend cap changes',
  'spend_alert.triggered': 'A spend alert threshold is reached',
  'restriction.updated': 'A restriction starts, changes or is lifted',
  'credits.topped_up': 'Credits are topped up',
};

export const WEBHOOK_URL_MAX = 2048;
export const WEBHOOK_DESCRIPTION_MAX = 200;

/**
 * The header every delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`, keyed with the
 * endpoint's signing secret. A receiver refuses a `t` further than the tolerance from its own clock.
 */
export const WEBHOOK_SIGNATURE_HEADER = 'Meterline-Signature';
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** What is signed: the timestamp, a dot, and the exact bytes of the body. */
export function signedPayload(timestamp: number, body: string): string {
  return `${timestamp}.${body}`;
}

export function formatSignatureHeader(timestamp: number, signatureHex: string): string {
  return `t=${timestamp},v1=${signatureHex}`;
}

/**
 * Reads a signature header: its timestamp and every `v1` (a receiver accepts any one of them, so a
 * sender may sign with two secrets while one is rotated). null when it is not one.
 */
export function parseSignatureHeader(
  header: string | null | undefined,
): { timestamp: number; signatures: string[] } | null {
  if (!header) return null;
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

export const webhookUrlSchema = z
  .string({ error: 'url is required' })
  .check(z.trim())
  .check(z.minLength(1, 'url is required'))
  .check(z.maxLength(WEBHOOK_URL_MAX, `url must be at most ${WEBHOOK_URL_MAX} characters`))
  .check(
    z.refine((value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || url.protocol === 'http:';
      } catch {
        return false;
      }
    }, 'url must be an https:// address (http:// is accepted outside production mode)'),
  )
  .check(
    z.refine((value) => {
      try {
        const url = new URL(value);
        return !url.username && !url.password;
      } catch {
        return true;
      }
    }, 'url must not contain a user name or password'),
  );

export const webhookEventsSchema = z
  .array(
    z.enum(WEBHOOK_EVENT_TYPES, {
      error: `events may only hold ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    }),
    { error: 'events must be a list of event types' },
  )
  .check(z.minLength(1, 'events must name at least one event type'))
  .check(z.maxLength(WEBHOOK_EVENT_TYPES.length, 'events must not repeat an event type'))
  .check(
    z.refine(
      (events) => new Set(events).size === events.length,
      'events must not repeat an event type',
    ),
  );

const descriptionSchema = plainTextSchema('description', WEBHOOK_DESCRIPTION_MAX);

export const webhookEndpointCreateSchema = documented(
  z.object({
    url: webhookUrlSchema,
    events: webhookEventsSchema,
    description: z.optional(descriptionSchema),
  }),
  { id: 'WebhookEndpointCreate' },
);
export type WebhookEndpointCreate = z.infer<typeof webhookEndpointCreateSchema>;

export const webhookEndpointUpdateSchema = documented(
  z
    .object({
      url: z.optional(webhookUrlSchema),
      events: z.optional(webhookEventsSchema),
      description: z.optional(descriptionSchema),
      enabled: z.optional(z.boolean({ error: 'enabled must be true or false' })),
    })
    .check(
      z.refine((body) => Object.values(body).some((value) => value !== undefined), {
        message: 'Give at least one of url, events, description, enabled',
      }),
    ),
  { id: 'WebhookEndpointUpdate' },
);
export type WebhookEndpointUpdate = z.infer<typeof webhookEndpointUpdateSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookEndpointSchema = documented(
  z.object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    /** Why it is off: turned off by a member, or failing for 3 days. null when enabled. */
    disabled_reason: z.nullable(z.enum(['manual', 'failing'])),
    /** Unix seconds. */
    created_at: z.number().check(z.int()),
    previous_secret_expires_at: documented(z.nullable(z.number().check(z.int())), {
      description:
        'After a rotation, until when (unix seconds) the replaced secret still signs deliveries ' +
        'beside the new one; a time past means it no longer does; null before any rotation',
    }),
    last_delivery: z.nullable(
      z.object({
        status: z.enum(WEBHOOK_DELIVERY_STATUSES),
        /** Unix seconds of its last attempt, or of its creation when none was made yet. */
        at: z.number().check(z.int()),
        response_status: z.nullable(z.number().check(z.int())),
      }),
    ),
  }),
  { id: 'WebhookEndpoint' },
);
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = documented(
  z.object({
    endpoints: documented(z.array(webhookEndpointSchema), { description: 'Oldest first' }),
  }),
  { id: 'WebhookEndpointList' },
);
export type WebhookEndpointList = z.infer<typeof webhookEndpointListSchema>;

export const webhookSecretSchema = documented(
  z.object({
    endpoint: webhookEndpointSchema,
    /** The signing secret, answered this once; it is never shown again. */
    secret: z.string(),
  }),
  { id: 'WebhookEndpointWithSecret' },
);
export type WebhookSecretResponse = z.infer<typeof webhookSecretSchema>;

export const webhookAttemptSchema = documented(
  z.object({
    /** Unix seconds. */
    at: z.number().check(z.int()),
    /** The receiver's HTTP status; null when no answer came (timeout, refused, network). */
    response_status: z.nullable(z.number().check(z.int())),
    duration_ms: z.number().check(z.int()),
    /** At most 500 characters of the answer's body. */
    response_excerpt: z.string(),
    error: z.nullable(z.string()),
  }),
  { id: 'WebhookAttempt' },
);
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

export const webhookDeliverySchema = documented(
  z.object({
    id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    /** Unix seconds. */
    created_at: z.number().check(z.int()),
    /** Unix seconds of the next attempt while pending; null otherwise. */
    next_attempt_at: z.nullable(z.number().check(z.int())),
    /** Newest first. */
    attempts: z.array(webhookAttemptSchema),
  }),
  { id: 'WebhookDelivery' },
);
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryListSchema = documented(
  z.object({
    deliveries: documented(z.array(webhookDeliverySchema), {
      description: 'Newest first, at most 50',
    }),
  }),
  { id: 'WebhookDeliveryList' },
);
export type WebhookDeliveryList = z.infer<typeof webhookDeliveryListSchema>;

/** The body of every delivery. */
export const webhookEventBodySchema = documented(
  z.object({
    id: z.string(),
    type: z.string(),
    /** Unix seconds. */
    created: z.number().check(z.int()),
    data: z.record(z.string(), z.unknown()),
  }),
  { id: 'WebhookEvent' },
);
export type WebhookEventBody = z.infer<typeof webhookEventBodySchema>;

const endpointIdSchema = z
  .string()
  .check(z.maxLength(60, 'Webhook endpoint not found'))
  .check(z.regex(prefixedIdPattern('we'), 'Webhook endpoint not found'));

export const webhookParamsSchema = z.object({ slug: slugSchema, id: endpointIdSchema });
export const webhookDeliveryParamsSchema = z.object({
  slug: slugSchema,
  id: endpointIdSchema,
  delivery_id: z
    .string()
    .check(z.maxLength(60, 'Webhook delivery not found'))
    .check(z.regex(prefixedIdPattern('wd'), 'Webhook delivery not found')),
});
