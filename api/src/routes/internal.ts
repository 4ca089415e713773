import {
  emailOutboxListSchema,
  emailOutboxQuerySchema,
  errorResponseSchema,
  usageEventsBatchSchema,
  usageEventsResultSchema,
  USAGE_EVENT_TIME_BOUNDS,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { listOutbox } from '../repositories/email-outbox.ts';
import { refuseEventsOutsideTimeBounds } from '../services/usage/event-time-bounds.ts';
import { ingestUsageEvents } from '../services/usage/ingest-usage-events.ts';

/** Operator calls: authenticated by the metering key, never by a browser session. */
const internalRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (
  app,
  { db, clock },
) => {
  app.post(
    '/internal/usage-events',
    {
      config: { access: { kind: 'operator' } },
      bodyLimit: 8 * 1024 * 1024,
      schema: {
        tags: ['internal'],
        summary: 'Report usage events (batched, idempotent by event id)',
        description:
          'Authorization: Bearer METERING_API_KEY. A batch naming an unknown project is refused whole. ' +
          `${USAGE_EVENT_TIME_BOUNDS} ` +
          'A Free or spend-capped organization whose usage this takes above a quota enters its grace period. ' +
          'An address that sends 10 wrong keys in 15 minutes is answered 429 (Retry-After) until they age out.',
        body: usageEventsBatchSchema,
        response: {
          200: usageEventsResultSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const at = clock.now();
      refuseEventsOutsideTimeBounds(request.body.events, at);
      const result = await ingestUsageEvents(db, request.body.events, {
        at,
        // The events are stored: the billing job's next pass observes the organization again.
        onError: (organizationId, error) =>
          request.log.error(
            { err: error, organizationId },
            'usage restriction or spend alert not checked after ingestion',
          ),
      });
      app.countIngestedEvents(result.accepted, result.duplicates);
      return result;
    },
  );

  app.get(
    '/internal/emails',
    {
      config: { access: { kind: 'operator' } },
      schema: {
        tags: ['internal'],
        summary: 'The billing mail outbox, newest first',
        description:
          'Authorization: Bearer METERING_API_KEY. Every message written for a billing event, one per ' +
          'recipient, with when it was handed to the mail transport (`delivered_at`, null while waiting).',
        querystring: emailOutboxQuerySchema,
        response: {
          200: emailOutboxListSchema,
          400: errorResponseSchema,
          401: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) => listOutbox(db, request.query),
  );
};

export default internalRoutes;
