/**
 * Monthly billing cycles anchored on a moment: the k-th cycle ends k calendar months after the anchor, on
 * the anchor's day of the month, or the month's last day when it is shorter (an anchor on the 31st ends
 * on Feb 28). Cycles are half-open [start, end) in unix seconds, UTC.
 */
export function addMonthsClamped(unixSeconds: number, months: number): number {
  const date = new Date(unixSeconds * 1000);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(date.getUTCDate(), lastDay);
  return (
    Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()) /
    1000
  );
}

export interface Cycle {
  start: number;
  end: number;
}

/** The cycle, counted from the anchor, that contains `at`. */
export function cycleContaining(anchor: number, at: number): Cycle {
  if (at < anchor) throw new RangeError('The moment is before the billing anchor');
  const from = new Date(anchor * 1000);
  const to = new Date(at * 1000);
  let k =
    (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
  while (k > 0 && addMonthsClamped(anchor, k) > at) k--;
  while (addMonthsClamped(anchor, k + 1) <= at) k++;
  return { start: addMonthsClamped(anchor, k), end: addMonthsClamped(anchor, k + 1) };
}

/** The cycle that follows the one ending at `end`. */
export function nextCycle(anchor: number, end: number): Cycle {
  return cycleContaining(anchor, end);
}

export function cycleDays(cycle: Cycle): number {
  return Math.round((cycle.end - cycle.start) / 86_400);
}

/** Whole days left in the cycle at `at` (a started day counts as left). */
export function daysLeft(cycle: Cycle, at: number): number {
  const clamped = Math.min(Math.max(at, cycle.start), cycle.end);
  return Math.ceil((cycle.end - clamped) / 86_400);
}
