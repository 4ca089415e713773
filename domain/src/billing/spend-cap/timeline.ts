import type { BillingPeriod } from '../invoice-input.ts';

/** A change of the spend cap inside a cycle: at `at` (unix seconds) it became on or off. */
export interface SpendCapToggle {
  readonly at: number;
  readonly capOn: boolean;
}

/** A half-open stretch [start, end) of a cycle during which the spend cap stayed on or off. */
export interface SpendCapInterval {
  readonly start: number;
  readonly end: number;
  readonly capOn: boolean;
}

/** Where a cycle's spend cap stood: at its start, and every toggle since. */
export interface SpendCapTimeline {
  readonly period: BillingPeriod;
  readonly capOnAtStart: boolean;
  /** In any order; a toggle to the state the cap is already in changes nothing. */
  readonly toggles: readonly SpendCapToggle[];
}

/**
 * The cycle cut into intervals with the cap on or off, up to `until` (the period's end when absent).
 * A toggle moves no cycle, so the intervals always start at the period's start; toggles at or after
 * `until` are not yet in force, toggles before the period's start are refused. Adjacent intervals
 * never share a state, and no interval is empty.
 */
export function spendCapIntervals(
  timeline: SpendCapTimeline,
  until: number = timeline.period.end,
): SpendCapInterval[] {
  const { start, end } = timeline.period;
  if (until < start || until > end) {
    throw new RangeError('The spend cap is read inside its billing period');
  }
  const toggles = [...timeline.toggles].sort((a, b) => a.at - b.at);
  if (toggles.some((toggle) => toggle.at < start || !Number.isSafeInteger(toggle.at))) {
    throw new RangeError('A spend cap toggle is whole unix seconds inside its billing period');
  }
  const intervals: SpendCapInterval[] = [];
  let from = start;
  let capOn = timeline.capOnAtStart;
  for (const toggle of toggles) {
    if (toggle.at >= until) break;
    if (toggle.capOn === capOn) continue;
    if (toggle.at > from) intervals.push({ start: from, end: toggle.at, capOn });
    from = toggle.at;
    capOn = toggle.capOn;
  }
  if (until > from) intervals.push({ start: from, end: until, capOn });
  return mergeAdjacent(intervals);
}

/** Two toggles at the same second can leave neighbours in the same state: one interval then. */
function mergeAdjacent(intervals: readonly SpendCapInterval[]): SpendCapInterval[] {
  const merged: SpendCapInterval[] = [];
  for (const interval of intervals) {
    const last = merged.at(-1);
    if (last && last.capOn === interval.capOn && last.end === interval.start) {
      merged[merged.length - 1] = { ...last, end: interval.end };
    } else {
      merged.push(interval);
    }
  }
  return merged;
}

/** Whether the cap is on at `at`: the last toggle at or before it decides. */
export function isSpendCapOnAt(timeline: SpendCapTimeline, at: number): boolean {
  return timeline.toggles
    .filter((toggle) => toggle.at <= at)
    .sort((a, b) => a.at - b.at)
    .reduce((capOn, toggle) => toggle.capOn, timeline.capOnAtStart);
}

/**
 * The moments at which the engine needs a reading of the cycle's overage: the start and end of every
 * interval with the cap off, up to `until`.
 */
export function spendCapReadingTimes(
  timeline: SpendCapTimeline,
  until: number = timeline.period.end,
): number[] {
  const times = spendCapIntervals(timeline, until)
    .filter((interval) => !interval.capOn)
    .flatMap((interval) => [interval.start, interval.end]);
  return [...new Set(times)];
}
