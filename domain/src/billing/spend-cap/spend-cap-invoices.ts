import type * as Q from '../../money/rational.ts';
import { cycleFraction, toBillingWindow, type UpcomingInvoiceInput } from '../invoice-input.ts';
import { projectToCycleEnd } from '../projection.ts';
import type { QuotaMetric } from '../quotas.ts';
import type { PricedInvoice, UpcomingInvoiceLine } from '../schemas.ts';
import {
  accruedInvoiceLines,
  computeUpcomingInvoice,
  invoiceTotal,
  projectedInvoiceLines,
  projectionOf,
} from '../upcoming-invoice.ts';
import { settleSpendCapOverage, type SpendCapSettlement } from './engine.ts';
import { spendCapOverageLines } from './lines.ts';
import {
  cappedOverageReading,
  type CappedOverage,
  type OverageReading,
} from './overage-reading.ts';
import { isSpendCapOnAt, type SpendCapTimeline } from './timeline.ts';

/** What the engine needs besides the usage: the cycle's cap history and what it has billed. */
export interface SpendCapLedger {
  readonly timeline: SpendCapTimeline;
  /** Readings at the boundaries of the intervals with the cap off, before now. */
  readonly readings: readonly OverageReading[];
  /** Per line, what the invoices issued by turning the cap on this cycle already billed. */
  readonly billed: CappedOverage;
}

export class SpendCapStateError extends Error {}

/** The invoice turning the cap on at `at` issues: its settlement and lines (none: no invoice). */
export interface SpendCapTurnOnCharge {
  readonly settlement: SpendCapSettlement;
  readonly lines: UpcomingInvoiceLine[];
}

/**
 * Turning the cap on at `at` (product-decisions §10) invoices at once the overage accrued while it was
 * off this cycle and not billed yet; from then on no overage accrues until it is turned off again.
 * `ledger.timeline` is the history before this toggle (the cap must be off at `at`), and `reading` is
 * the overage of the usage stamped before `at`. The lines state their period: the cycle up to `at`.
 */
export function spendCapTurnOnCharge(
  ledger: SpendCapLedger,
  reading: OverageReading,
): SpendCapTurnOnCharge {
  const { timeline } = ledger;
  const at = reading.at;
  if (at < timeline.period.start || at >= timeline.period.end) {
    throw new SpendCapStateError('The spend cap is turned on inside the current cycle');
  }
  if (isSpendCapOnAt(timeline, at)) throw new SpendCapStateError('The spend cap is already on');
  const settlement = settleSpendCapOverage({
    timeline,
    at,
    readings: withReading(ledger.readings, reading),
    billed: ledger.billed,
  });
  return {
    settlement,
    lines: spendCapOverageLines(settlement.amounts, { start: timeline.period.start, end: at }),
  };
}

/**
 * The upcoming invoice of an organization whose spend cap may have changed this cycle: every line
 * as the cap-on invoice prices it (so no capped overage), plus the capped overage the cycle's cap-off
 * intervals bill and the turn-on invoices have not billed yet. At `asOf` = the period's end these are
 * the lines that close the cycle. For an organization with the cap off all cycle this is the ordinary
 * cap-off invoice; with the cap on all cycle, the ordinary cap-on one.
 *
 * Other plans cannot toggle the cap: their invoice is `computeUpcomingInvoice`'s.
 *
 * `amount_projected` extends the current interval to the cycle's end: if the cap is off now, its usage
 * grows as the upcoming invoice projects it; if on, no more overage accrues.
 */
export function spendCapUpcomingInvoice(
  input: UpcomingInvoiceInput,
  ledger: SpendCapLedger,
): PricedInvoice {
  // Only Pro toggles the cap: every other plan's invoice is the ordinary one.
  if (input.planId !== 'pro') return computeUpcomingInvoice(input);
  const window = toBillingWindow(input);
  const asOf = window.asOf;
  const { timeline } = ledger;
  if (timeline.period.start !== window.period.start || timeline.period.end !== window.period.end) {
    throw new SpendCapStateError("The spend cap's timeline is of another cycle");
  }
  const capOn = { ...input, usageBillingEnabled: false };
  const fraction = cycleFraction(window.period);
  const now = cappedOverageReading(input.planId, asOf, input.usage, fraction);
  const readings = withReading(ledger.readings, now);
  // What the cycle's last settlement would bill now (the close, or a change cutting it short here).
  const accrued = settleSpendCapOverage({
    timeline,
    at: asOf,
    readings,
    billed: ledger.billed,
    credit: true,
  });
  const lines = [...accruedInvoiceLines(capOn), ...spendCapOverageLines(accrued.amounts)];

  const end = timeline.period.end;
  const projectedUsage = Object.fromEntries(projectToCycleEnd(window).usage) as Partial<
    Record<QuotaMetric, Q.Rational>
  >;
  const projectedTimeline: SpendCapTimeline = {
    ...timeline,
    toggles: timeline.toggles.filter((toggle) => toggle.at <= asOf),
  };
  const projected = settleSpendCapOverage({
    timeline: projectedTimeline,
    at: end,
    readings: withReading(
      readings,
      cappedOverageReading(input.planId, end, projectedUsage, fraction),
    ),
    billed: ledger.billed,
    credit: true,
  });
  const projectedLines = [
    ...projectedInvoiceLines(capOn),
    ...spendCapOverageLines(projected.amounts),
  ];
  return {
    lines,
    amount_total: invoiceTotal(lines),
    amount_projected: invoiceTotal(projectedLines),
    projection: projectionOf(window, projectedLines),
  };
}

/**
 * The lines that close a cycle whose spend cap was toggled: every line as the cap-on invoice projects it
 * to the period's end (so no capped overage), plus the capped overage the cap-off intervals bill and no
 * turn-on invoice billed yet, settled at the end. Other plans close with their ordinary lines.
 */
export function spendCapCloseLines(
  input: UpcomingInvoiceInput,
  ledger: SpendCapLedger,
): UpcomingInvoiceLine[] {
  if (input.planId !== 'pro') return projectedInvoiceLines(input);
  const { timeline } = ledger;
  const end = timeline.period.end;
  const settled = settleSpendCapOverage({
    timeline,
    at: end,
    readings: withReading(
      ledger.readings,
      cappedOverageReading(input.planId, end, input.usage, cycleFraction(input.period)),
    ),
    billed: ledger.billed,
    credit: true,
  });
  return [
    ...projectedInvoiceLines({ ...input, usageBillingEnabled: false }),
    ...spendCapOverageLines(settled.amounts),
  ];
}

/** The readings with `reading` in place of any other at the same moment. */
function withReading(
  readings: readonly OverageReading[],
  reading: OverageReading,
): OverageReading[] {
  return [...readings.filter((candidate) => candidate.at !== reading.at), reading];
}

/**
 * Per line, what the settlement at `at` bills of the cycle's capped overage: the change invoice that
 * ends the cycle at `at`, or the close at its end (`spendCapUpcomingInvoice` and `spendCapCloseLines`
 * bill exactly this). Added to the turn-on invoices' amounts, it is what the cycle's invoices billed,
 * kept with the closed cycle so that usage reaching it late is settled against it by the cycle's own
 * cap intervals (product-decisions §15).
 */
export function spendCapSettledAt(
  input: UpcomingInvoiceInput,
  ledger: SpendCapLedger,
  at: number,
): CappedOverage {
  if (input.planId !== 'pro') return {};
  return settleSpendCapOverage({
    timeline: ledger.timeline,
    at,
    readings: withReading(
      ledger.readings,
      cappedOverageReading(input.planId, at, input.usage, cycleFraction(input.period)),
    ),
    billed: ledger.billed,
    credit: true,
  }).amounts;
}
