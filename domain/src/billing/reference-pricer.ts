import type { Cents } from '../money/cents.ts';
import * as Q from '../money/rational.ts';
import { roundHalfUp } from '../money/round.ts';
import type { PlanId } from '../organization/plans.ts';
import {
  BILLING_PLANS,
  COMPUTE_DEFINITIONS,
  isComputeMetric,
  isQuotaMetric,
  QUOTA_DEFINITIONS,
  quotaFor,
  USAGE_METRIC_DEFINITIONS,
  type ComputeMetric,
  type QuotaMetric,
} from './catalogue.ts';
import { priceRational } from './unit-price.ts';

// The reference pricer (product-decisions §15): the oracle the engine is checked against. It is
// written to be read, not to be fast. Every event is placed alone, by its own timestamp, against the
// timeline of the subscription's states; each cycle's lines are then summed from the events placed
// in it. It uses the catalogue's prices and quotas and the money primitives only, never the engine's
// pricing (upcoming invoice, late usage, spend-cap settlement): a mistake there cannot hide here.

/**
 * One billing cycle, half-open [start, end) in unix seconds. `scheduledEnd` is the end the cycle had
 * before a plan change cut it short (equal to `end` for a full cycle): the cycle's fraction of a
 * month is (end − start) / (scheduledEnd − start).
 */
export interface ReferenceCycle {
  readonly start: number;
  readonly end: number;
  readonly scheduledEnd: number;
}

/**
 * What the subscription was from `from` on, until the next state: its plan, and for Pro whether the
 * spend cap was on. Free is always capped and Team or Enterprise never, whatever `capOn` says.
 */
export interface ReferenceState {
  readonly from: number;
  readonly planId: PlanId;
  readonly capOn: boolean;
}

export interface ReferenceTimeline {
  /** Contiguous and in order: each cycle starts where the one before ended. */
  readonly cycles: readonly ReferenceCycle[];
  /** In order of `from`; the first is in force from the first cycle's start. */
  readonly states: readonly ReferenceState[];
}

/** A usage event as a metering agent reports it. */
export interface ReferenceEvent {
  readonly projectRef: string;
  /** A quota metric or a compute metric (COMPUTE_HOURS_*). */
  readonly metric: string;
  /** For compute: which of the project's databases ran (primary when absent). */
  readonly resource?: 'primary' | 'read_replica' | 'branch';
  /** In the metric's unit: bytes, hours, users, invocations... */
  readonly usage: number;
  /** When it happened, unix seconds. */
  readonly timestamp: number;
}

/**
 * A usage line of a cycle. `key` names it: the quota metric of an overage line, `compute:{kind}:{metric}`
 * for compute hours, `compute_credits` for the credits (negative).
 */
export interface ReferenceLine {
  readonly key: string;
  readonly cents: Cents;
}

export interface ReferenceCycleBill {
  readonly cycle: ReferenceCycle;
  /** The plan the cycle was on (a plan change always starts a new cycle). */
  readonly planId: PlanId;
  /** Lines that bill something (no zero line), in a fixed order: compute, credits, then overage. */
  readonly lines: readonly ReferenceLine[];
  readonly totalCents: Cents;
}

export interface ReferenceBill {
  readonly cycles: readonly ReferenceCycleBill[];
  /** Events stamped outside every cycle of the timeline: no cycle can bill them. */
  readonly unplaced: readonly ReferenceEvent[];
}

export const COMPUTE_CREDITS_KEY = 'compute_credits';

export function computeLineKey(kind: ComputeKind, metric: ComputeMetric): string {
  return `compute:${kind}:${metric}`;
}

type ComputeKind = 'primary' | 'read_replica' | 'branch';

/** The state in force at `at`: the last one that started at or before it. */
export function stateAt(timeline: ReferenceTimeline, at: number): ReferenceState {
  let found: ReferenceState | undefined;
  for (const state of timeline.states) if (state.from <= at) found = state;
  if (!found) throw new RangeError(`No subscription state at ${at}`);
  return found;
}

/** Whether capped overage is left unbilled at `at`: Free always, Pro when its cap is on, Team never. */
export function capOnAt(timeline: ReferenceTimeline, at: number): boolean {
  const state = stateAt(timeline, at);
  const policy = BILLING_PLANS[state.planId].spendCap;
  return policy === 'always_on' || (policy === 'optional' && state.capOn);
}

/** The cycle an event stamped at `at` belongs to, or undefined when none contains it. */
export function cycleOf(timeline: ReferenceTimeline, at: number): ReferenceCycle | undefined {
  return timeline.cycles.find((cycle) => cycle.start <= at && at < cycle.end);
}

/** The cycle's fraction of a month: 1 for a full cycle, less for one a plan change cut short. */
export function cycleFraction(cycle: ReferenceCycle): Q.Rational {
  return Q.rational(cycle.end - cycle.start, cycle.scheduledEnd - cycle.start);
}

/**
 * A metric's usage over a set of events, by its aggregation, per project and resource, then added up
 * over them: sums add, sizes average their samples (sum of samples / number of samples), peaks take
 * the largest, monthly active users are reported as new users and add.
 */
function aggregate(metric: QuotaMetric, events: readonly ReferenceEvent[]): Q.Rational {
  const series = new Map<string, Q.Rational[]>();
  for (const event of events) {
    if (event.metric !== metric) continue;
    const key = `${event.projectRef}|${event.resource ?? ''}`;
    series.set(key, [...(series.get(key) ?? []), Q.rationalFromNumber(event.usage)]);
  }
  const aggregation = USAGE_METRIC_DEFINITIONS[metric].aggregation;
  let total = Q.ZERO;
  for (const samples of series.values()) {
    if (aggregation === 'average') {
      total = Q.add(total, Q.divide(Q.sum(samples), Q.rational(samples.length)));
    } else if (aggregation === 'max') {
      total = Q.add(
        total,
        samples.reduce((a, b) => Q.max(a, b)),
      );
    } else {
      total = Q.add(total, Q.sum(samples));
    }
  }
  return total;
}

/** Metrics whose allowance is time-integrated (GB-months): they scale with the cycle's fraction. */
function isTimeIntegrated(metric: QuotaMetric): boolean {
  return USAGE_METRIC_DEFINITIONS[metric].aggregation === 'average';
}

/**
 * An overage line's amount for these events with the line billed (cap off): the excess over the
 * plan's quota times the unit price, rounded half up once. Count quotas stay whole in a short cycle;
 * sizes are billed as GB-months, the excess times the cycle's fraction of a month.
 */
function overageCents(
  planId: PlanId,
  cycle: ReferenceCycle,
  metric: QuotaMetric,
  events: readonly ReferenceEvent[],
): Cents {
  const quota = quotaFor(planId, metric);
  if (planId === 'free' || quota === null) return 0;
  if (quota.scope !== 'organization') {
    throw new RangeError(`The reference pricer does not price per-project quotas (${metric})`);
  }
  const excess = Q.max(
    Q.ZERO,
    Q.subtract(aggregate(metric, events), Q.rationalFromNumber(quota.included)),
  );
  const months = isTimeIntegrated(metric) ? cycleFraction(cycle) : Q.rational(1);
  return roundHalfUp(
    Q.multiply(Q.multiply(excess, months), priceRational(QUOTA_DEFINITIONS[metric].price)),
  );
}

/**
 * What a capped overage line bills over a cycle: its increase over each interval with the cap off,
 * level by level (the cents 0..amount are levels, each billed at most once). The line's amount at a
 * moment x is its amount for the events stamped before x.
 */
function cappedOverageCents(
  timeline: ReferenceTimeline,
  planId: PlanId,
  cycle: ReferenceCycle,
  metric: QuotaMetric,
  events: readonly ReferenceEvent[],
): Cents {
  const amountAt = (x: number) =>
    overageCents(
      planId,
      cycle,
      metric,
      events.filter((event) => event.timestamp < x),
    );
  let billed = 0;
  let highestLevelBilled = 0;
  for (const interval of capIntervals(timeline, cycle)) {
    if (interval.capOn) continue;
    const from = Math.max(amountAt(interval.start), highestLevelBilled);
    const to = amountAt(interval.end);
    if (to > from) {
      billed += to - from;
      highestLevelBilled = to;
    }
  }
  return billed;
}

/** The cycle cut where the cap's effect changes: [start, end) pieces, each with the cap on or off. */
export function capIntervals(
  timeline: ReferenceTimeline,
  cycle: ReferenceCycle,
): { start: number; end: number; capOn: boolean }[] {
  const cuts = [
    cycle.start,
    ...timeline.states
      .map((state) => state.from)
      .filter((at) => at > cycle.start && at < cycle.end),
    cycle.end,
  ];
  const moments = [...new Set(cuts)].sort((a, b) => a - b);
  const intervals: { start: number; end: number; capOn: boolean }[] = [];
  for (let i = 0; i + 1 < moments.length; i += 1) {
    const start = moments[i] as number;
    const end = moments[i + 1] as number;
    const capOn = capOnAt(timeline, start);
    const last = intervals.at(-1);
    if (last && last.capOn === capOn) intervals[intervals.length - 1] = { ...last, end };
    else intervals.push({ start, end, capOn });
  }
  return intervals;
}

function computeKindOf(event: ReferenceEvent): ComputeKind {
  if (event.metric === 'COMPUTE_HOURS_BRANCH') return 'branch';
  return event.resource ?? 'primary';
}

/** One cycle's usage lines, from the events placed in it. */
function billCycle(
  timeline: ReferenceTimeline,
  cycle: ReferenceCycle,
  events: readonly ReferenceEvent[],
): ReferenceCycleBill {
  const planId = stateAt(timeline, cycle.start).planId;
  for (const state of timeline.states) {
    if (state.from > cycle.start && state.from < cycle.end && state.planId !== planId) {
      throw new RangeError('A plan change must start a new cycle');
    }
  }
  const plan = BILLING_PLANS[planId];
  const lines: ReferenceLine[] = [];

  // Compute: one line per kind and size, hours × hourly price, rounded once.
  if (plan.billsCompute) {
    const hours = new Map<string, Q.Rational>();
    for (const event of events) {
      if (!isComputeMetric(event.metric)) continue;
      const key = computeLineKey(computeKindOf(event), event.metric);
      hours.set(key, Q.add(hours.get(key) ?? Q.ZERO, Q.rationalFromNumber(event.usage)));
    }
    const keys = [...hours.keys()].sort();
    for (const key of keys) {
      const metric = key.split(':')[2] as ComputeMetric;
      const cents = roundHalfUp(
        Q.multiply(
          hours.get(key) ?? Q.ZERO,
          priceRational(COMPUTE_DEFINITIONS[metric].hourlyPrice),
        ),
      );
      if (cents !== 0) lines.push({ key, cents });
    }
    // The credits cover compute up to the plan's credits × the cycle's fraction of a month.
    const compute = lines.reduce((sum, line) => sum + line.cents, 0);
    const allowance = roundHalfUp(
      Q.multiply(Q.rational(plan.computeCreditsCents ?? 0), cycleFraction(cycle)),
    );
    const covered = Math.min(allowance, compute);
    if (covered > 0) lines.push({ key: COMPUTE_CREDITS_KEY, cents: -covered });
  }

  // Overage: a metric the spend cap covers bills its increases while the cap was off; the others
  // (disk, log drain) bill on every paid plan.
  const metrics = [...new Set(events.map((event) => event.metric))].filter(isQuotaMetric).sort();
  for (const metric of metrics) {
    const cents = QUOTA_DEFINITIONS[metric].capped
      ? cappedOverageCents(timeline, planId, cycle, metric, events)
      : overageCents(planId, cycle, metric, events);
    if (cents !== 0) lines.push({ key: metric, cents });
  }

  return {
    cycle,
    planId,
    lines,
    totalCents: lines.reduce((sum, line) => sum + line.cents, 0),
  };
}

/** Checks the timeline: cycles contiguous and non-empty, states in order from the first cycle. */
function checkTimeline(timeline: ReferenceTimeline): void {
  timeline.cycles.forEach((cycle, i) => {
    if (!(cycle.start < cycle.end && cycle.end <= cycle.scheduledEnd)) {
      throw new RangeError(`Cycle ${i} must have start < end ≤ scheduledEnd`);
    }
    const previous = timeline.cycles[i - 1];
    if (previous && previous.end !== cycle.start) {
      throw new RangeError(`Cycle ${i} must start where cycle ${i - 1} ended`);
    }
  });
  const first = timeline.cycles[0];
  if (first && (timeline.states[0]?.from ?? Infinity) > first.start) {
    throw new RangeError('The first state must be in force from the first cycle’s start');
  }
  timeline.states.forEach((state, i) => {
    const previous = timeline.states[i - 1];
    if (previous && previous.from > state.from) throw new RangeError('States must be in order');
  });
}

/**
 * Prices usage events against a timeline: each event is placed, alone, in the cycle that contains its
 * timestamp; each cycle then bills its events by the plan it was on, the spend cap's state at each
 * event's moment, and its length.
 */
export function referenceBill(
  timeline: ReferenceTimeline,
  events: readonly ReferenceEvent[],
): ReferenceBill {
  checkTimeline(timeline);
  for (const event of events) {
    if (!isQuotaMetric(event.metric) && !isComputeMetric(event.metric)) {
      throw new RangeError(`The reference pricer does not price ${event.metric}`);
    }
  }
  const placed = new Map<ReferenceCycle, ReferenceEvent[]>();
  const unplaced: ReferenceEvent[] = [];
  for (const event of events) {
    const cycle = cycleOf(timeline, event.timestamp);
    if (cycle) placed.set(cycle, [...(placed.get(cycle) ?? []), event]);
    else unplaced.push(event);
  }
  return {
    cycles: timeline.cycles.map((cycle) => billCycle(timeline, cycle, placed.get(cycle) ?? [])),
    unplaced,
  };
}
