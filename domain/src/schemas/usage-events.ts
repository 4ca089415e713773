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

/**
 * How long before it arrives an event may have happened: 60 days. A reporter that was down sends its
 * backlog within that (decision 005); older usage is refused rather than billed on an invoice months
 * after its cycle, against rules that may no longer be on record.
 */
export const MAX_USAGE_EVENT_AGE_SECONDS = 60 * 86_400;
/**
 * How far after its arrival an event may be stamped: 10 minutes, for reporters whose clocks run a
 * little ahead. Usage stamped later has not happened yet.
 */
export const MAX_USAGE_EVENT_LEAD_SECONDS = 10 * 60;
/** At most this many refused events are named in the answer; the rest are counted. */
export const MAX_NAMED_EVENT_TIME_REFUSALS = 10;

const AGE = `${MAX_USAGE_EVENT_AGE_SECONDS / 86_400} days`;
const LEAD = `${MAX_USAGE_EVENT_LEAD_SECONDS / 60} minutes`;

/** The rule in words, for the API document and the refusal. */
export const USAGE_EVENT_TIME_BOUNDS =
  `An event may be stamped at most ${AGE} before the batch arrives and at most ${LEAD} after: ` +
  'a batch holding any other is refused whole (400, naming such events) and nothing of it is stored.';

export const COMPUTE_RESOURCE_KINDS = ['primary', 'read_replica', 'branch'] as const;

export const usageEventSchema = z.strictObject({
  // zod's own messages in an event: the error answer then names the field with its place in the
  // batch ("events.3.id: …"), which a message of ours would lose.
  /** The reporter's id for the event; a repeat of the same id is ignored. */
  id: z.string().check(z.minLength(1)).check(z.maxLength(200)).check(z.regex(PRINTABLE_ASCII)),
  project_ref: projectRefSchema,
  metric: billingMetricSchema,
  usage: z.number().check(z.gte(0)).check(z.lte(MAX_EVENT_USAGE)),
  /**
   * When the usage happened, unix seconds: from 1970 to the end of the year 9999 by its form, and
   * within the bounds of `usageEventTimeRefusals` by the moment it arrives.
   */
  timestamp: documented(
    z.number().check(z.int()).check(z.gte(0)).check(z.lte(MAX_USAGE_TIMESTAMP)),
    {
      description: `When the usage happened, unix seconds: at most ${AGE} before the batch arrives and at most ${LEAD} after`,
    },
  ),
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
  { id: 'UsageEventsBatch', description: USAGE_EVENT_TIME_BOUNDS },
);
export type UsageEventsBatch = z.infer<typeof usageEventsBatchSchema>;

export const usageEventsResultSchema = documented(
  z.object({ accepted: z.number().check(z.int()), duplicates: z.number().check(z.int()) }),
  { id: 'UsageEventsResult' },
);
export type UsageEventsResult = z.infer<typeof usageEventsResultSchema>;

/** An event of a batch whose time is outside the bounds, as the refusal names it. */
export interface UsageEventTimeRefusal {
  /** Its place in the batch (0-based, as `events[3]`). */
  readonly index: number;
  readonly id: string;
  readonly timestamp: number;
  readonly reason: 'too_old' | 'too_far_ahead';
}

/**
 * The events of a batch stamped outside the bounds at `now` (unix seconds, the moment the batch
 * arrives): more than `MAX_USAGE_EVENT_AGE_SECONDS` before it, or more than
 * `MAX_USAGE_EVENT_LEAD_SECONDS` after. Both bounds are inclusive: an event stamped exactly 60 days
 * before, or exactly 10 minutes after, is kept. Empty: the batch may be stored.
 */
export function usageEventTimeRefusals(
  events: readonly Pick<UsageEvent, 'id' | 'timestamp'>[],
  now: number,
): UsageEventTimeRefusal[] {
  const earliest = now - MAX_USAGE_EVENT_AGE_SECONDS;
  const latest = now + MAX_USAGE_EVENT_LEAD_SECONDS;
  const refusals: UsageEventTimeRefusal[] = [];
  events.forEach((event, index) => {
    const reason =
      event.timestamp < earliest ? 'too_old' : event.timestamp > latest ? 'too_far_ahead' : null;
    if (reason) refusals.push({ index, id: event.id, timestamp: event.timestamp, reason });
  });
  return refusals;
}

const isoSeconds = (seconds: number) =>
  new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The 400's message: each refused event by its place and id, its time and which bound it breaks,
 * the first `MAX_NAMED_EVENT_TIME_REFUSALS` of them, then how many more. "events[3] (id evt_1):
 * timestamp 2026-01-01T00:00:00Z is more than 60 days before now (2026-11-20T12:00:00Z); …"
 */
export function usageEventTimeRefusalMessage(
  refusals: readonly UsageEventTimeRefusal[],
  now: number,
): string {
  const named = refusals.slice(0, MAX_NAMED_EVENT_TIME_REFUSALS).map((refusal) => {
    const bound =
      refusal.reason === 'too_old' ? `more than ${AGE} before` : `more than ${LEAD} after`;
    return `events[${refusal.index}] (id ${refusal.id}): timestamp ${isoSeconds(refusal.timestamp)} is ${bound} now (${isoSeconds(Math.floor(now))})`;
  });
  const more = refusals.length - named.length;
  const rest =
    more > 0 ? [`and ${more} more event${more === 1 ? '' : 's'} outside these bounds`] : [];
  return `${[...named, ...rest].join('; ')}. ${USAGE_EVENT_TIME_BOUNDS}`;
}
