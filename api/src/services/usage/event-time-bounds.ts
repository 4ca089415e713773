import {
  usageEventTimeRefusalMessage,
  usageEventTimeRefusals,
  type UsageEvent,
} from '@meterline/domain';
import { Failure } from '../../lib/failure.ts';

/**
 * Refuses a batch holding an event stamped outside the bounds at `arrivedAt` (the server's clock:
 * at most 60 days before, at most 10 minutes after), whole, before anything of it is stored: 400
 * naming the events. The operator's endpoint and CLI check it; the demo seed, which replays its own
 * past, does not.
 */
export function refuseEventsOutsideTimeBounds(
  events: readonly Pick<UsageEvent, 'id' | 'timestamp'>[],
  arrivedAt: Date,
): void {
  const now = arrivedAt.getTime() / 1000;
  const refusals = usageEventTimeRefusals(events, now);
  if (refusals.length > 0)
    throw new Failure('invalid', usageEventTimeRefusalMessage(refusals, now));
}
