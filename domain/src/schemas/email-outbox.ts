import { z } from 'zod';

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
] as const;
export type EmailEventName = (typeof EMAIL_EVENTS)[number];

export const emailOutboxQuerySchema = z.object({
  to: z
    .email({ error: 'to must be an email address' })
    .max(320, 'to must be at most 320 characters')
    .optional(),
  since: z
    .string()
    .max(40, 'since must be an ISO 8601 date-time (2026-12-01T00:00:00Z)')
    .pipe(
      z.iso.datetime({
        offset: true,
        error: 'since must be an ISO 8601 date-time (2026-12-01T00:00:00Z)',
      }),
    )
    .optional(),
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 500')
    .max(500, 'limit must be between 1 and 500')
    .default(100),
});
export type EmailOutboxQuery = z.infer<typeof emailOutboxQuerySchema>;

export const outboxEmailSchema = z
  .object({
    id: z.string(),
    to: z.string(),
    subject: z.string(),
    event: z.enum(EMAIL_EVENTS),
    organization_slug: z.string().nullable(),
    created_at: z.iso.datetime(),
    delivered_at: z.iso.datetime().nullable(),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
  })
  .meta({ id: 'OutboxEmail' });

export const emailOutboxListSchema = z
  .object({ emails: z.array(outboxEmailSchema).describe('Newest first') })
  .meta({ id: 'EmailOutbox' });
export type EmailOutboxList = z.infer<typeof emailOutboxListSchema>;
