import {
  addOverage,
  cappedOverageReading,
  type CappedOverage,
  type OverageReading,
  type PlanId,
  type Rational,
  type SpendCapLedger,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { cycleUsageStampedBefore } from '../../repositories/usage-readings.ts';
import { usageTotals } from '../usage/usage-rows.ts';

/**
 * The cycle's overage readings at each moment, by event time (product-decisions §15): each the capped
 * lines' amounts for the usage stamped before it, whenever that usage arrived. Read again whenever a
 * cycle with toggles is priced, so an event reported late counts in the cap interval it happened in,
 * never in the one it arrived in.
 */
export async function readingsByEventTime(
  db: Db,
  organizationId: string,
  planId: PlanId,
  cycleStart: Date,
  moments: readonly number[],
  /** The cycle's fraction of a month, as its lines count it: below 1 for one a change cut short. */
  fraction: Rational,
): Promise<OverageReading[]> {
  const distinct = [...new Set(moments)].filter((at) => at > cycleStart.getTime() / 1000);
  return Promise.all(
    distinct.map(async (at) => {
      const rows = await cycleUsageStampedBefore(
        db,
        organizationId,
        cycleStart,
        new Date(at * 1000),
      );
      return cappedOverageReading(planId, at, usageTotals(rows), fraction);
    }),
  );
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The spend cap's toggles in the cycle that started at `start`, in order. */
export function spendCapToggles(db: Db, organizationId: string, start: Date) {
  return db
    .selectFrom('spend_cap_toggles')
    .select(['at', 'cap_on', 'billed'])
    .where('organization_id', '=', organizationId)
    .where('cycle_start', '=', start)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

/**
 * The cycle's spend-cap ledger from its toggles: the cap at the cycle's start (before the first toggle,
 * which always flips it), the readings at each toggle by event time (`readingsByEventTime`: the usage
 * stamped before it, whenever it arrived), and what the turn-on invoices billed. Null when the cap was
 * not toggled this cycle: the ordinary invoice is then exactly the engine's.
 */
export function spendCapLedgerOf(
  period: { start: Date; end: Date },
  toggles: readonly { at: Date; cap_on: boolean; billed: CappedOverage }[],
  readings: readonly OverageReading[],
): SpendCapLedger | null {
  const first = toggles[0];
  if (first === undefined) return null;
  return {
    timeline: {
      period: { start: seconds(period.start), end: seconds(period.end) },
      capOnAtStart: !first.cap_on,
      toggles: toggles.map((toggle) => ({ at: seconds(toggle.at), capOn: toggle.cap_on })),
    },
    readings,
    billed: addOverage(toggles.map((toggle) => toggle.billed)),
  };
}
