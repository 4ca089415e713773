import { z } from 'zod/mini';
import { documented } from './metadata.ts';

/** The billing mail events (product decisions §12) that the outbox can hold. */
export const EMAIL_EVENTS = [
  'invoice.finalized',
  'payment.succeeded',
  'payment.failed',
  'restriction.changed',
  'credits.topped_up',
  'plan.changed',
  'plan.scheduled',
  'spend_cap.changed',
  'card.expiring',
  'spend_alert.triggered',
  'webhook.disabled',
  'payment.disputed',
] as const;
export type EmailEventName = (typeof EMAIL_EVENTS)[number];

export const emailOutboxQuerySchema = z.object({
  to: z.optional(
    z
      .email({ error: 'to must be an email address' })
      .check(z.maxLength(320, 'to must be at most 320 characters')),
  ),
  since: z.optional(
    z.pipe(
      z
        .string()
        .check(z.maxLength(40, 'since must be an ISO 8601 date-time (2026-12-01T00:00:00Z)')),
      z.iso.datetime({
        offset: true,
        error: 'since must be an ISO 8601 date-time (2026-12-01T00:00:00Z)',
      }),
    ),
  ),
  limit: z._default(
    z.coerce
      .number()
      .check(z.int('limit must be a whole number'))
      .check(z.gte(1, 'limit must be between 1 and 500'))
      .check(z.lte(500, 'limit must be between 1 and 500')),
    100,
  ),
});
export type EmailOutboxQuery = z.infer<typeof emailOutboxQuerySchema>;

export const outboxEmailSchema = documented(
  z.object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    event: z.enum(EMAIL_EVENTS),
    organization_slug: z.nullable(z.string()),
    created_at: z.iso.datetime(),
    delivered_at: z.nullable(z.iso.datetime()),
    attempts: z.number().check(z.int()),
    last_error: z.nullable(z.string()),
  }),
  { id: 'OutboxEmail' },
);

export const emailOutboxListSchema = documented(
  z.object({ emails: documented(z.array(outboxEmailSchema), { description: 'Newest first' }) }),
  { id: 'EmailOutbox' },
);
export type EmailOutboxList = z.infer<typeof emailOutboxListSchema>;
