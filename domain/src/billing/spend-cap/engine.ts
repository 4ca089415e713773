import { toCents, type Cents } from '../../money/cents.ts';
import type { QuotaMetric } from '../quotas.ts';
import {
  amountOf,
  CAPPED_METRICS,
  type CappedOverage,
  type OverageReading,
} from './overage-reading.ts';
import { spendCapIntervals, type SpendCapInterval, type SpendCapTimeline } from './timeline.ts';

/** What one interval with the cap off adds to the cycle's overage. */
export interface OffIntervalCharge {
  readonly interval: SpendCapInterval;
  readonly amounts: CappedOverage;
}

export class SpendCapReadingMissing extends RangeError {}

/** The reading at `at`; the cycle's start needs none (nothing is stamped before it). */
function readingAt(
  timeline: SpendCapTimeline,
  readings: readonly OverageReading[],
  at: number,
): CappedOverage {
  const reading = readings.find((candidate) => candidate.at === at);
  if (reading) return reading.amounts;
  if (at === timeline.period.start) return {};
  throw new SpendCapReadingMissing(`No overage reading at ${at}`);
}

/**
 * The overage each interval with the cap off bills, up to `until`: per line, its increase over the
 * interval. A line is billed by level: the cents from 0 to its amount are units of excess, each
 * billed at most once in a cycle. An interval bills the levels its line climbs through that no
 * earlier interval billed: from max(amount at its start, highest level billed so far) up to the
 * amount at its end. For usage that only grows in a cycle (sums, distinct users, peaks) that is
 * exactly "end minus start"; an average that falls while the cap is on and climbs back while it is
 * off is not billed again for the levels it had already paid for, and a fall bills nothing (never a
 * negative amount).
 */
export function offIntervalCharges(
  timeline: SpendCapTimeline,
  readings: readonly OverageReading[],
  until: number = timeline.period.end,
): OffIntervalCharge[] {
  const billedUpTo = new Map<QuotaMetric, Cents>();
  return spendCapIntervals(timeline, until)
    .filter((interval) => !interval.capOn)
    .map((interval) => {
      const atStart = readingAt(timeline, readings, interval.start);
      const atEnd = readingAt(timeline, readings, interval.end);
      const amounts: Partial<Record<QuotaMetric, Cents>> = {};
      for (const metric of CAPPED_METRICS) {
        const from = Math.max(amountOf(atStart, metric), billedUpTo.get(metric) ?? 0);
        const to = toCents(amountOf(atEnd, metric));
        if (to > from) {
          amounts[metric] = to - from;
          billedUpTo.set(metric, to);
        }
      }
      return { interval, amounts };
    });
}

/** Per line, what the cycle's intervals with the cap off bill in all, up to `until`. */
export function spendCapOverageEntitlement(
  timeline: SpendCapTimeline,
  readings: readonly OverageReading[],
  until: number = timeline.period.end,
): CappedOverage {
  return addOverage(offIntervalCharges(timeline, readings, until).map((charge) => charge.amounts));
}

export function addOverage(parts: readonly CappedOverage[]): CappedOverage {
  const total: Partial<Record<QuotaMetric, Cents>> = {};
  for (const metric of CAPPED_METRICS) {
    const sum = parts.reduce((acc, part) => acc + amountOf(part, metric), 0);
    if (sum !== 0) total[metric] = toCents(sum);
  }
  return total;
}

/** What a settlement at `at` bills now, and what the cycle is entitled to in all by then. */
export interface SpendCapSettlement {
  readonly at: number;
  /** Per line, what to bill now: never negative; empty when nothing is due. */
  readonly amounts: CappedOverage;
  /** Per line, all the cycle's cap-off intervals bill up to `at`. */
  readonly entitled: CappedOverage;
}

export interface SpendCapSettlementInput {
  readonly timeline: SpendCapTimeline;
  /** The moment of the settlement: the cap being turned on, the cycle's close, or now for a preview. */
  readonly at: number;
  /** A reading at every moment `spendCapReadingTimes(timeline, at)` names. */
  readonly readings: readonly OverageReading[];
  /** Per line, what earlier settlements of this cycle already invoiced. */
  readonly billed: CappedOverage;
  /**
   * The settlement that ends the cycle's billing (its close, the change that cuts it short, its late
   * usage) credits what was billed beyond the entitlement: an average that late samples lowered, or
   * sizes a turn-on invoice billed for a whole month in a cycle a change then cut short (§15). A
   * turn-on invoice never does: it bills what is due, and the cycle's last settlement corrects.
   */
  readonly credit?: boolean;
}

/**
 * What a settlement bills: the entitlement up to `at` minus what was billed already, per line, never
 * below zero unless it is the cycle's last (`credit`). Settling twice at the same moment bills nothing the second time, and the settlements of
 * a cycle add up to its entitlement whatever moments they happen at: overage that was reported late
 * for an interval already settled is billed by the next settlement, never twice.
 */
export function settleSpendCapOverage(input: SpendCapSettlementInput): SpendCapSettlement {
  const entitled = spendCapOverageEntitlement(input.timeline, input.readings, input.at);
  const amounts: Partial<Record<QuotaMetric, Cents>> = {};
  for (const metric of CAPPED_METRICS) {
    const due = amountOf(entitled, metric) - amountOf(input.billed, metric);
    if (due > 0 || (input.credit && due < 0)) amounts[metric] = toCents(due);
  }
  return { at: input.at, amounts, entitled };
}

export function isOverageEmpty(overage: CappedOverage): boolean {
  return CAPPED_METRICS.every((metric) => amountOf(overage, metric) === 0);
}
