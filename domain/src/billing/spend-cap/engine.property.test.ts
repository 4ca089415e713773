import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cents } from '../../money/cents.ts';
import type { UpcomingInvoiceInput } from '../invoice-input.ts';
import type { QuotaMetric } from '../quotas.ts';
import {
  computeUpcomingInvoice,
  invoiceTotal,
  projectedInvoiceLines,
} from '../upcoming-invoice.ts';
import {
  addOverage,
  offIntervalCharges,
  settleSpendCapOverage,
  spendCapOverageEntitlement,
} from './engine.ts';
import {
  amountOf,
  CAPPED_METRICS,
  cappedOverageReading,
  type CappedOverage,
  type OverageReading,
} from './overage-reading.ts';
import { spendCapCloseLines, spendCapUpcomingInvoice } from './spend-cap-invoices.ts';
import type { SpendCapTimeline, SpendCapToggle } from './timeline.ts';

const DAY = 86_400;
const start = 1_800_000_000;
const period = { start, end: start + 30 * DAY };

/**
 * A cycle: toggles at distinct moments, and the usage of each capped metric growing between them
 * (what sums, distinct counts and peaks do), read at every toggle and at the close.
 */
const cycle = fc
  .record({
    capOnAtStart: fc.boolean(),
    moments: fc.uniqueArray(fc.integer({ min: 1, max: 30 * DAY - 1 }), { maxLength: 6 }),
    states: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
    growth: fc.array(
      fc.dictionary(fc.constantFrom(...CAPPED_METRICS), fc.nat({ max: 400_000_000_000 }), {
        maxKeys: 4,
      }),
      { minLength: 7, maxLength: 7 },
    ),
  })
  .map(({ capOnAtStart, moments, states, growth }) => {
    const times = [...moments].sort((a, b) => a - b).map((offset) => start + offset);
    const toggles: SpendCapToggle[] = times.map((at, i) => ({ at, capOn: states[i] ?? true }));
    const timeline: SpendCapTimeline = { period, capOnAtStart, toggles };
    const usage: Partial<Record<QuotaMetric, number>> = {};
    const readings: OverageReading[] = [...times, period.end].map((at, i) => {
      for (const [metric, add] of Object.entries(growth[i] ?? {}) as [QuotaMetric, number][]) {
        usage[metric] = (usage[metric] ?? 0) + add;
      }
      return cappedOverageReading('pro', at, { ...usage });
    });
    return { timeline, readings, finalUsage: { ...usage } };
  });

const whole = (overage: CappedOverage) =>
  CAPPED_METRICS.every(
    (m) => Number.isSafeInteger(amountOf(overage, m)) && amountOf(overage, m) >= 0,
  );

/** The cycle as the API lives it: a settlement at every turn-on, then the close. */
function settlements(
  timeline: SpendCapTimeline,
  readings: readonly OverageReading[],
): CappedOverage[] {
  const billed: CappedOverage[] = [];
  const turnOns = timeline.toggles.filter((t) => t.capOn).map((t) => t.at);
  for (const at of [...turnOns, period.end]) {
    const before = { ...timeline, toggles: timeline.toggles.filter((t) => t.at < at) };
    const settled = settleSpendCapOverage({
      timeline: before,
      at,
      readings,
      billed: addOverage(billed),
    });
    billed.push(settled.amounts);
  }
  return billed;
}

describe('spend cap engine properties', () => {
  it('bills each unit of excess at most once, however often the cap is toggled', () => {
    fc.assert(
      fc.property(cycle, ({ timeline, readings }) => {
        const final = readings.at(-1)?.amounts ?? {};
        const total = addOverage(settlements(timeline, readings));
        for (const metric of CAPPED_METRICS) {
          // Never more than a cycle with the cap off all along...
          expect(amountOf(total, metric)).toBeLessThanOrEqual(amountOf(final, metric));
        }
        // ...and the settlements add up to the sum of each interval's increase.
        expect(total).toEqual(spendCapOverageEntitlement(timeline, readings));
      }),
    );
  });

  it("with the cap off all cycle, bills exactly today's cap-off overage", () => {
    fc.assert(
      fc.property(cycle, ({ readings }) => {
        const timeline = { period, capOnAtStart: false, toggles: [] };
        const final = readings.at(-1)?.amounts ?? {};
        expect(spendCapOverageEntitlement(timeline, readings)).toEqual(final);
      }),
    );
  });

  it('with the cap on all cycle, bills none', () => {
    fc.assert(
      fc.property(cycle, ({ readings }) => {
        const timeline = {
          period,
          capOnAtStart: true,
          toggles: [{ at: start + DAY, capOn: true }],
        };
        expect(spendCapOverageEntitlement(timeline, readings)).toEqual({});
      }),
    );
  });

  it('bills whole, non-negative cents; a second settlement at the same moment bills nothing', () => {
    fc.assert(
      fc.property(cycle, ({ timeline, readings }) => {
        for (const charge of offIntervalCharges(timeline, readings)) {
          expect(whole(charge.amounts)).toBe(true);
        }
        const once = settleSpendCapOverage({ timeline, at: period.end, readings, billed: {} });
        expect(whole(once.amounts)).toBe(true);
        const again = settleSpendCapOverage({
          timeline,
          at: period.end,
          readings,
          billed: once.amounts,
        });
        expect(again.amounts).toEqual({});
      }),
    );
  });

  it('never bills a level twice even when usage falls and climbs back (averages)', () => {
    const wobbling = fc
      .record({
        toggles: fc.uniqueArray(fc.integer({ min: 1, max: 29 }), { maxLength: 6 }),
        levels: fc.array(fc.nat({ max: 5000 }), { minLength: 7, maxLength: 7 }),
      })
      .map(({ toggles, levels }) => {
        const times = [...toggles].sort((a, b) => a - b).map((d) => start + d * DAY);
        const timeline: SpendCapTimeline = {
          period,
          capOnAtStart: false,
          toggles: times.map((at, i) => ({ at, capOn: i % 2 === 0 })),
        };
        const readings = [...times, period.end].map((at, i) => ({
          at,
          amounts: { STORAGE_SIZE: levels[i] ?? 0 },
        }));
        return {
          timeline,
          readings,
          highest: Math.max(0, ...readings.map((r) => r.amounts.STORAGE_SIZE)),
        };
      });
    fc.assert(
      fc.property(wobbling, ({ timeline, readings, highest }) => {
        const billed: Cents = amountOf(
          spendCapOverageEntitlement(timeline, readings),
          'STORAGE_SIZE',
        );
        expect(billed).toBeLessThanOrEqual(highest);
      }),
    );
  });

  it("the upcoming invoice of a cycle with the cap off all along is today's cap-off invoice", () => {
    fc.assert(
      fc.property(cycle, fc.integer({ min: 1, max: 30 * DAY }), ({ finalUsage }, offset) => {
        // From the cycle's first second on: nothing is stamped before its start.
        const input: UpcomingInvoiceInput = {
          planId: 'pro',
          usageBillingEnabled: true,
          period,
          asOf: start + offset,
          projects: [{ ref: 'p1', name: 'One' }],
          compute: [],
          addons: [],
          usage: finalUsage,
        };
        const ledger = {
          timeline: { period, capOnAtStart: false, toggles: [] },
          readings: [],
          billed: {},
        };
        const ordinary = computeUpcomingInvoice(input);
        const engine = spendCapUpcomingInvoice(input, ledger);
        expect(engine.amount_total).toBe(ordinary.amount_total);
        expect(engine.amount_projected).toBe(ordinary.amount_projected);
        const onAllAlong = { ...ledger, timeline: { ...ledger.timeline, capOnAtStart: true } };
        const capOn = computeUpcomingInvoice({ ...input, usageBillingEnabled: false });
        expect(spendCapUpcomingInvoice(input, onAllAlong)).toEqual(capOn);
      }),
    );
  });

  it('the close of a cycle with the cap off (or on) all along bills the ordinary close lines', () => {
    fc.assert(
      fc.property(cycle, fc.boolean(), ({ finalUsage }, capOnAllAlong) => {
        const input: UpcomingInvoiceInput = {
          planId: 'pro',
          usageBillingEnabled: !capOnAllAlong,
          period,
          asOf: period.end,
          projects: [{ ref: 'p1', name: 'One' }],
          compute: [],
          addons: [],
          usage: finalUsage,
        };
        const ledger = {
          timeline: { period, capOnAtStart: capOnAllAlong, toggles: [] },
          readings: [],
          billed: {},
        };
        const close = spendCapCloseLines(input, ledger);
        expect(invoiceTotal(close)).toBe(invoiceTotal(projectedInvoiceLines(input)));
        expect(close.map((line) => line.description)).toEqual(
          projectedInvoiceLines(input).map((line) => line.description),
        );
      }),
    );
  });
});
