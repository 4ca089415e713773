import {
  cycleContaining,
  type Cycle,
  type UsageEvent,
  type UsageEventsResult,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { lockSubscription } from '../../repositories/subscriptions.ts';
import {
  billingAnchors,
  insertUsageEvents,
  placeEventsAgain,
  projectsByRef,
  type ResolvedEvent,
} from '../../repositories/usage.ts';
import { closedCycleSpans } from '../../repositories/closed-cycles.ts';
import { organizationsWithSpendAlert } from '../../repositories/spend-alerts.ts';
import { checkSpendAlerts } from '../spend-alerts/check-spend-alerts.ts';
import { observeCurrentUsage } from '../restrictions/usage-restriction.ts';

/**
 * What a batch is followed by (restriction observations, spend alerts): at the ingestion's moment,
 * failures reported, not thrown.
 */
export interface ObserveRestrictions {
  at: Date;
  onError(organizationId: string, error: unknown): void;
}

/**
 * Stores a batch of usage events; a batch naming an unknown project is refused whole. With `observe`,
 * when the batch held new events, each Free or spend-capped organization it names is then sent its
 * cycle so far (product-decisions §11: a
 * Free or spend-capped organization above a quota starts its grace period at once), one observation
 * per organization, each in its own short transaction after the events' statement has committed: the
 * events never wait on it, and an observation that fails loses no event (the billing job's next pass
 * observes the organization again). Then each organization with a spend alert budget is checked against
 * it (product decisions §12) the same way, one at a time: a failure there is reported and left to the
 * job's next pass.
 */
export async function ingestUsageEvents(
  db: Db,
  events: readonly UsageEvent[],
  observe?: ObserveRestrictions,
): Promise<UsageEventsResult> {
  const projects = await projectsByRef(db, [...new Set(events.map((event) => event.project_ref))]);
  const unknown = events.find((event) => !projects.has(event.project_ref));
  if (unknown) throw new Failure('invalid', `events: unknown project ref ${unknown.project_ref}`);
  const anchors = await billingAnchors(db, [
    ...new Set([...projects.values()].map((p) => p.organizationId)),
  ]);
  // Before the anchor (it moves when a plan change restarts the cycle) an event belongs to the closed
  // cycle that contains it: read only for the organizations that have such events.
  const early = new Set<string>();
  for (const event of events) {
    const project = projects.get(event.project_ref);
    const anchor = project ? anchors.get(project.organizationId)?.anchor : undefined;
    if (project && anchor !== undefined && event.timestamp < anchor)
      early.add(project.organizationId);
  }
  const closed = early.size > 0 ? await closedCycleSpans(db, [...early]) : new Map();
  const cycleStartOf = cycleFinder(closed);
  const anchorsSeen = new Map<string, number>();
  const resolved = events.map((event) => {
    const project = projects.get(event.project_ref);
    if (!project) throw new Failure('invalid', `events: unknown project ref ${event.project_ref}`);
    return {
      eventId: event.id,
      organizationId: project.organizationId,
      projectId: project.id,
      metric: event.metric,
      resource: computeResource(event),
      usage: event.usage,
      timestamp: event.timestamp,
      cycleStart: cycleStartOf(
        project.organizationId,
        anchors.get(project.organizationId)?.anchor,
        event.timestamp,
      ),
    };
  });
  const accepted = await insertUsageEvents(db, resolved, anchorsSeen);
  await placeAgainWhereAnchorMoved(db, resolved, anchors, anchorsSeen);
  if (observe && accepted > 0) {
    for (const [organizationId, anchor] of anchors) {
      if (!anchor.limitsUsage) continue;
      try {
        await observeCurrentUsage(db, organizationId, observe.at);
      } catch (error) {
        observe.onError(organizationId, error);
      }
    }
    for (const organizationId of await organizationsWithSpendAlert(db, [...anchors.keys()])) {
      try {
        await checkSpendAlerts(db, organizationId, observe.at);
      } catch (error) {
        observe.onError(organizationId, error);
      }
    }
  }
  return { accepted, duplicates: events.length - accepted };
}

/**
 * A plan change applied between reading an organization's anchor and storing the batch moved the
 * anchor: the batch was placed by the cycles as they were. The statement that stored it waited for the
 * change's lock and saw the new anchor; its events stamped from that anchor on are placed again, under
 * the subscription's lock, as the change placed the events it found.
 */
async function placeAgainWhereAnchorMoved(
  db: Db,
  events: readonly ResolvedEvent[],
  anchors: ReadonlyMap<string, { anchor: number }>,
  anchorsSeen: ReadonlyMap<string, number>,
): Promise<void> {
  for (const [organizationId, anchor] of anchorsSeen) {
    if (anchors.get(organizationId)?.anchor === anchor) continue;
    const starts = events
      .filter((event) => event.organizationId === organizationId && event.cycleStart !== null)
      .map((event) => event.cycleStart?.getTime() ?? 0);
    if (starts.length === 0) continue;
    await db.transaction().execute(async (trx) => {
      await lockSubscription(trx, organizationId);
      await placeEventsAgain(
        trx,
        organizationId,
        { at: new Date(anchor * 1000), cycleStart: new Date(Math.min(...starts)) },
        (timestamp) => new Date(cycleContaining(anchor, timestamp).start * 1000),
      );
    });
  }
}

function computeResource(event: UsageEvent): string {
  if (event.metric === 'COMPUTE_HOURS_BRANCH') return 'branch';
  if (event.metric.startsWith('COMPUTE_HOURS')) return event.resource ?? 'primary';
  return '';
}

/**
 * The start of the billing cycle an event counts toward: from the anchor on, the anchor's monthly
 * cycles; before it, the closed cycle that contains it (none before the subscription began). A batch
 * mostly falls in one or two cycles per organization, so the last cycle found per anchor is tried first.
 */
function cycleFinder(
  closed: ReadonlyMap<string, readonly Cycle[]>,
): (organizationId: string, anchor: number | undefined, timestamp: number) => Date | null {
  const last = new Map<number, { cycle: Cycle; start: Date }>();
  return (organizationId, anchor, timestamp) => {
    if (anchor === undefined) return null;
    if (timestamp < anchor) {
      const cycle = closed
        .get(organizationId)
        ?.find((span) => span.start <= timestamp && timestamp < span.end);
      return cycle ? new Date(cycle.start * 1000) : null;
    }
    const known = last.get(anchor);
    if (known && known.cycle.start <= timestamp && timestamp < known.cycle.end) return known.start;
    const cycle = cycleContaining(anchor, timestamp);
    const start = new Date(cycle.start * 1000);
    last.set(anchor, { cycle, start });
    return start;
  };
}
