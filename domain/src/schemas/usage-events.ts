import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { billingMetricSchema } from '../billing/metrics.ts';
import { PRINTABLE_ASCII, projectRefSchema } from './common.ts';

export const MAX_USAGE_EVENTS_PER_BATCH = 10_000;

/**
 * The most one event may report, in its metric's unit (about 9 PB in bytes): every usage stays an exact
 * JavaScript number, and sums of many stay exact in the database's numeric.
 */
export const MAX_EVENT_USAGE = Number.MAX_SAFE_INTEGER;

/** The last second of the year 9999: the latest time PostgreSQL and JavaScript dates share. */
export const MAX_USAGE_TIMESTAMP = 253_402_300_799;

export const COMPUTE_RESOURCE_KINDS = ['primary', 'read_replica', 'branch'] as const;

export const usageEventSchema = z.strictObject({
  // zod's own messages in an event: the error answer then names the field with its place in the
  // batch ("events.3.id: …"), which a message of ours would lose.
  /** The reporter's id for the event; a repeat of the same id is ignored. */
  id: z.string().check(z.minLength(1)).check(z.maxLength(200)).check(z.regex(PRINTABLE_ASCII)),
  project_ref: projectRefSchema,
  metric: billingMetricSchema,
  usage: z.number().check(z.gte(0)).check(z.lte(MAX_EVENT_USAGE)),
  /** When the usage happened, unix seconds: from 1970 to the end of the year 9999. */
  timestamp: z.number().check(z.int()).check(z.gte(0)).check(z.lte(MAX_USAGE_TIMESTAMP)),
  /** For compute metrics: which of the project's databases ran. */
  resource: z.optional(z.enum(COMPUTE_RESOURCE_KINDS)),
});
export type UsageEvent = z.infer<typeof usageEventSchema>;

export const usageEventsBatchSchema = documented(
  z.object({
    events: z
      .array(usageEventSchema)
      .check(z.minLength(1))
      .check(z.maxLength(MAX_USAGE_EVENTS_PER_BATCH)),
  }),
  { id: 'UsageEventsBatch' },
);
export type UsageEventsBatch = z.infer<typeof usageEventsBatchSchema>;

export const usageEventsResultSchema = documented(
  z.object({ accepted: z.number().check(z.int()), duplicates: z.number().check(z.int()) }),
  { id: 'UsageEventsResult' },
);
export type UsageEventsResult = z.infer<typeof usageEventsResultSchema>;
