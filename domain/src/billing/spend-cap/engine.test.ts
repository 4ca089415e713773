import { describe, expect, it } from 'vitest';
import { rational, type Rational } from '../../money/rational.ts';
import { computeUpcomingInvoice } from '../upcoming-invoice.ts';
import type { UpcomingInvoiceInput } from '../invoice-input.ts';
import {
  offIntervalCharges,
  settleSpendCapOverage,
  SpendCapReadingMissing,
  spendCapOverageEntitlement,
} from './engine.ts';
import { spendCapOverageLines } from './lines.ts';
import { cappedOverageReading } from './overage-reading.ts';
import {
  spendCapTurnOnCharge,
  spendCapUpcomingInvoice,
  SpendCapStateError,
} from './spend-cap-invoices.ts';
import { spendCapIntervals, spendCapReadingTimes, type SpendCapTimeline } from './timeline.ts';

const GB = 1e9;
const DAY = 86_400;
const start = 1_793_491_200; // 1 Nov 2026
const period = { start, end: start + 30 * DAY };
const day = (n: number) => start + n * DAY;
/** Egress over Pro's 250 GB: $0.09 per GB beyond it. */
const egress = (gb: number) => cappedOverageReading('pro', 0, { EGRESS: gb * GB }).amounts;
const reading = (n: number, gb: number) => ({ at: day(n), amounts: egress(gb) });

describe('spendCapIntervals', () => {
  it('cuts the cycle at each toggle that changes the cap, up to a moment', () => {
    const timeline: SpendCapTimeline = {
      period,
      capOnAtStart: true,
      toggles: [
        { at: day(20), capOn: true },
        { at: day(10), capOn: false },
        { at: day(12), capOn: false },
      ],
    };
    expect(spendCapIntervals(timeline)).toEqual([
      { start, end: day(10), capOn: true },
      { start: day(10), end: day(20), capOn: false },
      { start: day(20), end: period.end, capOn: true },
    ]);
    expect(spendCapIntervals(timeline, day(15))).toEqual([
      { start, end: day(10), capOn: true },
      { start: day(10), end: day(15), capOn: false },
    ]);
    expect(spendCapReadingTimes(timeline)).toEqual([day(10), day(20)]);
  });

  it('merges a toggle and its undoing at the same second', () => {
    const timeline: SpendCapTimeline = {
      period,
      capOnAtStart: true,
      toggles: [
        { at: day(5), capOn: false },
        { at: day(5), capOn: true },
        { at: day(9), capOn: false },
      ],
    };
    expect(spendCapIntervals(timeline)).toEqual([
      { start, end: day(9), capOn: true },
      { start: day(9), end: period.end, capOn: false },
    ]);
  });

  it('refuses toggles before the cycle and moments outside it', () => {
    const timeline = { period, capOnAtStart: false, toggles: [{ at: start - 1, capOn: true }] };
    expect(() => spendCapIntervals(timeline)).toThrow(RangeError);
    expect(() => spendCapIntervals({ ...timeline, toggles: [] }, period.end + 1)).toThrow(
      RangeError,
    );
  });
});

describe('the spend cap engine', () => {
  // Off from the start; on at day 10 (300 GB by then); off at day 20 (320 GB); 400 GB at the close.
  const timeline: SpendCapTimeline = {
    period,
    capOnAtStart: false,
    toggles: [
      { at: day(10), capOn: true },
      { at: day(20), capOn: false },
    ],
  };
  const readings = [reading(10, 300), reading(20, 320), reading(30, 400)];

  it('bills each interval with the cap off for its own increase', () => {
    expect(egress(300)).toEqual({ EGRESS: 450 });
    expect(offIntervalCharges(timeline, readings).map((charge) => charge.amounts)).toEqual([
      { EGRESS: 450 },
      { EGRESS: 720 },
    ]);
    // 50 GB, then 80 GB; the 20 GB used while the cap was on are not billed.
    expect(spendCapOverageEntitlement(timeline, readings)).toEqual({ EGRESS: 1170 });
  });

  it('invoices at the turn-on what the off interval accrued, and only the rest at the close', () => {
    const before = { ...timeline, toggles: [] };
    const charge = spendCapTurnOnCharge(
      { timeline: before, readings: [], billed: {} },
      reading(10, 300),
    );
    expect(charge.settlement.amounts).toEqual({ EGRESS: 450 });
    expect(charge.lines).toMatchObject([
      {
        description: 'Egress (Nov 01, 2026 – Nov 11, 2026)',
        amount: 450,
        unit_price_desc: '$0.09 per GB',
      },
    ]);
    const close = settleSpendCapOverage({
      timeline,
      at: period.end,
      readings,
      billed: { EGRESS: 450 },
    });
    expect(close.amounts).toEqual({ EGRESS: 720 });
    // Closing again bills nothing more.
    expect(
      settleSpendCapOverage({ timeline, at: period.end, readings, billed: close.entitled }).amounts,
    ).toEqual({});
  });

  it('issues no invoice when nothing accrued while the cap was off', () => {
    const charge = spendCapTurnOnCharge(
      { timeline: { period, capOnAtStart: false, toggles: [] }, readings: [], billed: {} },
      reading(3, 100),
    );
    expect(charge.lines).toEqual([]);
  });

  it('refuses turning on a cap that is already on', () => {
    expect(() =>
      spendCapTurnOnCharge(
        { timeline: { period, capOnAtStart: true, toggles: [] }, readings: [], billed: {} },
        reading(3, 100),
      ),
    ).toThrow(SpendCapStateError);
  });

  it('bills usage reported late for a settled interval once, at the next settlement', () => {
    // At the turn-on, 300 GB were known; 310 GB had in fact been used before day 10.
    const late = [reading(10, 310), reading(20, 320), reading(30, 400)];
    const close = settleSpendCapOverage({
      timeline,
      at: period.end,
      readings: late,
      billed: { EGRESS: 450 },
    });
    // The 10 GB reported late cost 90¢ more for the first interval; the second still bills 720¢.
    expect(close.entitled).toEqual({ EGRESS: 540 + 720 });
    expect(close.amounts).toEqual({ EGRESS: 90 + 720 });
  });

  it('never bills again the levels an average climbs back to', () => {
    // A size average: 300 GB-equivalent while off, falls to 280 while on, climbs to 320 while off.
    const average = [reading(10, 300), reading(20, 280), reading(30, 320)];
    expect(offIntervalCharges(timeline, average).map((charge) => charge.amounts)).toEqual([
      { EGRESS: 450 },
      { EGRESS: 180 },
    ]);
  });

  it('asks for every reading it needs', () => {
    expect(() => spendCapOverageEntitlement(timeline, [reading(10, 300)])).toThrow(
      SpendCapReadingMissing,
    );
  });

  it('words its lines as the upcoming invoice words overage', () => {
    expect(spendCapOverageLines({ MONTHLY_ACTIVE_USERS: 325, EGRESS: 9 })).toMatchObject([
      { description: 'Egress', amount: 9, usage_metric: 'EGRESS' },
      { description: 'Monthly Active Users', amount: 325, unit_price_desc: '$0.00325 per MAU' },
    ]);
  });
});

describe('spendCapUpcomingInvoice', () => {
  const input: UpcomingInvoiceInput = {
    planId: 'pro',
    usageBillingEnabled: true,
    period,
    asOf: day(15),
    projects: [{ ref: 'p1', name: 'One' }],
    compute: [
      { projectRef: 'p1', kind: 'primary', metric: 'COMPUTE_HOURS_XS', hours: 360, running: true },
    ],
    addons: [],
    usage: { EGRESS: 300 * GB, DISK_SIZE_GB_HOURS_GP3: 10_000 },
  };

  it('is the ordinary cap-off invoice when the cap was off all cycle', () => {
    const ledger = {
      timeline: { period, capOnAtStart: false, toggles: [] },
      readings: [],
      billed: {},
    };
    const ordinary = computeUpcomingInvoice(input);
    const withCap = spendCapUpcomingInvoice(input, ledger);
    expect(withCap.amount_total).toBe(ordinary.amount_total);
    expect(withCap.amount_projected).toBe(ordinary.amount_projected);
  });

  it('leaves the invoice of the plans that cannot toggle the cap as it is', () => {
    const ledger = {
      timeline: { period, capOnAtStart: false, toggles: [] },
      readings: [],
      billed: {},
    };
    const team = { ...input, planId: 'team' as const };
    expect(spendCapUpcomingInvoice(team, ledger)).toEqual(computeUpcomingInvoice(team));
    const elsewhere = {
      ...ledger,
      timeline: { ...ledger.timeline, period: { start, end: day(31) } },
    };
    expect(() => spendCapUpcomingInvoice(input, elsewhere)).toThrow(SpendCapStateError);
  });

  it('shows the same total right after the cap is turned off', () => {
    const capOn = computeUpcomingInvoice({ ...input, usageBillingEnabled: false });
    const ledger = {
      timeline: { period, capOnAtStart: true, toggles: [{ at: day(15), capOn: false }] },
      readings: [],
      billed: {},
    };
    expect(spendCapUpcomingInvoice(input, ledger).amount_total).toBe(capOn.amount_total);
    // Disk beyond its quota is billed whatever the cap: it is in both.
    expect(capOn.lines.some((line) => line.usage_metric === 'DISK_SIZE_GB_HOURS_GP3')).toBe(true);
  });
});

describe("the settlement that ends a cycle's billing", () => {
  const timeline: SpendCapTimeline = {
    period,
    capOnAtStart: false,
    toggles: [{ at: day(10), capOn: true }],
  };
  const database = (gb: number, fraction?: Rational) =>
    cappedOverageReading('pro', 0, { DATABASE_SIZE: gb * GB }, fraction).amounts;

  it('credits what was billed beyond the entitlement; a turn-on invoice never does', () => {
    // The turn-on invoice billed 60 GB over the quota; samples reported since lowered the average to 40.
    const billed = database(68);
    const readings = [{ at: day(10), amounts: database(48) }];
    expect(billed).toEqual({ DATABASE_SIZE: 750 });
    const last = settleSpendCapOverage({
      timeline,
      at: period.end,
      readings,
      billed,
      credit: true,
    });
    expect(last.amounts).toEqual({ DATABASE_SIZE: 500 - 750 });
    expect(settleSpendCapOverage({ timeline, at: period.end, readings, billed }).amounts).toEqual(
      {},
    );
  });

  it('counts sizes for the fraction of a month a cycle cut short ran (GB-months)', () => {
    // 108 GB on average, 100 GB over Pro's 8 GB at 12.5¢: $12.50 a month, $2.50 for a fifth of one.
    expect(database(108)).toEqual({ DATABASE_SIZE: 1250 });
    expect(database(108, rational(1, 5))).toEqual({ DATABASE_SIZE: 250 });
    // Egress is a count: its quota stays whole in any cycle.
    expect(cappedOverageReading('pro', 0, { EGRESS: 260 * GB }, rational(1, 5)).amounts).toEqual({
      EGRESS: 90,
    });
  });
});
