import { describe, expect, it } from 'vitest';
import {
  capIntervals,
  COMPUTE_CREDITS_KEY,
  computeLineKey,
  referenceBill,
  type ReferenceCycle,
  type ReferenceEvent,
  type ReferenceTimeline,
} from './reference-pricer.ts';

const GB = 1_000_000_000;
const DAY = 86_400;
const S = Date.UTC(2026, 10, 1) / 1000; // 1 Nov 2026
const E = Date.UTC(2026, 11, 1) / 1000; // 1 Dec 2026: 30 days later
const full: ReferenceCycle = { start: S, end: E, scheduledEnd: E };

const event = (
  metric: string,
  usage: number,
  timestamp: number,
  extra: Partial<ReferenceEvent> = {},
): ReferenceEvent => ({ projectRef: 'p1', metric, usage, timestamp, ...extra });

const lines = (timeline: ReferenceTimeline, events: ReferenceEvent[]) =>
  referenceBill(timeline, events).cycles.map((cycle) =>
    Object.fromEntries(cycle.lines.map((line) => [line.key, line.cents])),
  );

const totals = (timeline: ReferenceTimeline, events: ReferenceEvent[]) =>
  referenceBill(timeline, events).cycles.map((cycle) => cycle.totalCents);

const payg: ReferenceTimeline = {
  cycles: [full],
  states: [{ from: S, planId: 'pro', capOn: false }],
};
const capped: ReferenceTimeline = {
  cycles: [full],
  states: [{ from: S, planId: 'pro', capOn: true }],
};

describe('reference pricer', () => {
  it('a full Pro cycle with the cap off: egress and size beyond the quota, compute under the credits', () => {
    const events = [
      // 300 GB of egress: 50 GB beyond 250 GB at 9¢ = 450¢.
      event('EGRESS', 200 * GB, S + DAY),
      event('EGRESS', 100 * GB, S + 20 * DAY),
      // Database size averages 12 GB: 4 GB beyond 8 GB at 12.5¢ = 50¢.
      event('DATABASE_SIZE', 10 * GB, S + DAY),
      event('DATABASE_SIZE', 14 * GB, S + 2 * DAY),
      // 100 h of Medium at $0.0822 = 822¢, all covered by the $10 of credits.
      event('COMPUTE_HOURS_MD', 100, S + 3 * DAY),
    ];
    expect(lines(payg, events)).toEqual([
      {
        [computeLineKey('primary', 'COMPUTE_HOURS_MD')]: 822,
        [COMPUTE_CREDITS_KEY]: -822,
        EGRESS: 450,
        DATABASE_SIZE: 50,
      },
    ]);
    expect(totals(payg, events)).toEqual([500]);
  });

  it('the cap on all cycle bills no capped overage, but compute beyond the credits', () => {
    const events = [
      event('EGRESS', 300 * GB, S + DAY),
      // 200 h of Medium = 1644¢, of which the credits cover 1000¢.
      event('COMPUTE_HOURS_MD', 200, S + DAY),
      // A replica's hours are a line of their own: 10 h of Small = 20.6¢ → 21¢.
      event('COMPUTE_HOURS_SM', 10, S + DAY, { resource: 'read_replica' }),
    ];
    expect(lines(capped, events)).toEqual([
      {
        [computeLineKey('primary', 'COMPUTE_HOURS_MD')]: 1644,
        [computeLineKey('read_replica', 'COMPUTE_HOURS_SM')]: 21,
        [COMPUTE_CREDITS_KEY]: -1000,
      },
    ]);
    expect(totals(capped, events)).toEqual([665]);
  });

  it('bills a capped line only for its increase while the cap was off, by event time', () => {
    const timeline: ReferenceTimeline = {
      cycles: [full],
      states: [
        { from: S, planId: 'pro', capOn: true },
        { from: S + 10 * DAY, planId: 'pro', capOn: false },
        { from: S + 20 * DAY, planId: 'pro', capOn: true },
      ],
    };
    const events = [
      // Cap on: 260 GB, 10 GB beyond the quota (90¢ the line reads at day 10).
      event('EGRESS', 260 * GB, S + 5 * DAY),
      // Cap off: 20 GB more, the line climbs to 270¢ by day 20: 180¢ billed.
      event('EGRESS', 20 * GB, S + 15 * DAY),
      // Stamped exactly at the turn-on: the cap is on at that moment, nothing billed.
      event('EGRESS', 10 * GB, S + 20 * DAY),
      event('EGRESS', 10 * GB, S + 25 * DAY),
    ];
    expect(capIntervals(timeline, full)).toEqual([
      { start: S, end: S + 10 * DAY, capOn: true },
      { start: S + 10 * DAY, end: S + 20 * DAY, capOn: false },
      { start: S + 20 * DAY, end: E, capOn: true },
    ]);
    expect(lines(timeline, events)).toEqual([{ EGRESS: 180 }]);
    // An event stamped at the turn-off moment is billed (the cap is off from that second): the line
    // reads 90¢ at day 10 and 31 GB × 9¢ = 279¢ at day 20, 189¢ billed.
    expect(lines(timeline, [...events, event('EGRESS', 1 * GB, S + 10 * DAY)])).toEqual([
      { EGRESS: 189 },
    ]);
  });

  it('bills an average level by level: a fall bills nothing, climbing back bills only new levels', () => {
    const timeline: ReferenceTimeline = {
      cycles: [full],
      states: [
        { from: S, planId: 'pro', capOn: false },
        { from: S + 10 * DAY, planId: 'pro', capOn: true },
        { from: S + 20 * DAY, planId: 'pro', capOn: false },
      ],
    };
    const events = [
      // Off: average 20 GB, 12 GB beyond: 150¢.
      event('DATABASE_SIZE', 20 * GB, S + DAY),
      // On: average 10 GB, the line falls to 25¢.
      event('DATABASE_SIZE', 0, S + 12 * DAY),
      // Off again: average 13.33 GB, the line climbs to 66.67¢ → 67¢, below the 150¢ billed already.
      event('DATABASE_SIZE', 20 * GB, S + 25 * DAY),
    ];
    expect(lines(timeline, events)).toEqual([{ DATABASE_SIZE: 150 }]);
  });

  it('rounds each line once, half up', () => {
    // 8.04 GB on average: 0.04 GB at 12.5¢ = 0.5¢ → 1¢.
    expect(lines(payg, [event('DATABASE_SIZE', 8_040_000_000, S)])).toEqual([{ DATABASE_SIZE: 1 }]);
    // 100,001 MAU: one user at 0.325¢ → 0¢, no line; two users 0.65¢ → 1¢.
    expect(lines(payg, [event('MONTHLY_ACTIVE_USERS', 100_001, S)])).toEqual([{}]);
    expect(lines(payg, [event('MONTHLY_ACTIVE_USERS', 100_002, S)])).toEqual([
      { MONTHLY_ACTIVE_USERS: 1 },
    ]);
    // 3 h of Micro = 4.032¢ → 4¢; two events of 1.5 h are one line: the same 4¢, not 2 + 2.
    expect(
      lines(capped, [event('COMPUTE_HOURS_XS', 1.5, S), event('COMPUTE_HOURS_XS', 1.5, S + 1)]),
    ).toEqual([{ [computeLineKey('primary', 'COMPUTE_HOURS_XS')]: 4, [COMPUTE_CREDITS_KEY]: -4 }]);
  });

  it('places each event by its timestamp in the cycle that contains it; a change cuts the cycle short', () => {
    const t = S + 15 * DAY;
    const timeline: ReferenceTimeline = {
      // Pro (cap off) until a change to Team at day 15: the first cycle is half a month.
      cycles: [
        { start: S, end: t, scheduledEnd: E },
        { start: t, end: t + 30 * DAY, scheduledEnd: t + 30 * DAY },
      ],
      states: [
        { from: S, planId: 'pro', capOn: false },
        { from: t, planId: 'team', capOn: false },
      ],
    };
    const events = [
      // Half a month: size averages 12 GB, 4 GB beyond × 1/2 month × 12.5¢ = 25¢.
      event('DATABASE_SIZE', 12 * GB, S + DAY),
      // The credits cover up to $10 × 1/2 = 500¢ of the 822¢ of compute.
      event('COMPUTE_HOURS_MD', 100, S + DAY),
      // Egress keeps its whole quota in a short cycle: 260 GB is 10 GB beyond, 90¢.
      event('EGRESS', 260 * GB, t - 1),
      // Stamped at the change: the new cycle's, Team's (its quota again).
      event('EGRESS', 300 * GB, t),
      // Before the first cycle and after the last: no cycle bills them.
      event('EGRESS', GB, S - 1),
      event('EGRESS', GB, t + 30 * DAY),
    ];
    const bill = referenceBill(timeline, events);
    expect(bill.cycles.map((cycle) => cycle.planId)).toEqual(['pro', 'team']);
    expect(lines(timeline, events)).toEqual([
      {
        [computeLineKey('primary', 'COMPUTE_HOURS_MD')]: 822,
        [COMPUTE_CREDITS_KEY]: -500,
        DATABASE_SIZE: 25,
        EGRESS: 90,
      },
      { EGRESS: 450 },
    ]);
    expect(totals(timeline, events)).toEqual([437, 450]);
    expect(bill.unplaced.map((e) => e.timestamp)).toEqual([S - 1, t + 30 * DAY]);
  });

  it('Free bills nothing; Team bills overage whatever the state says of the cap', () => {
    const events = [event('EGRESS', 300 * GB, S), event('COMPUTE_HOURS_MD', 100, S)];
    const on = (planId: 'free' | 'team'): ReferenceTimeline => ({
      cycles: [full],
      states: [{ from: S, planId, capOn: planId === 'team' }],
    });
    expect(totals(on('free'), events)).toEqual([0]);
    // Free's quota is 5 GB: still nothing, the free plan is always capped.
    expect(lines(on('free'), [event('EGRESS', 300 * GB, S)])).toEqual([{}]);
    expect(lines(on('team'), events)).toEqual([
      {
        [computeLineKey('primary', 'COMPUTE_HOURS_MD')]: 822,
        [COMPUTE_CREDITS_KEY]: -822,
        EGRESS: 450,
      },
    ]);
  });

  it('averages per project: two projects of 6 GB each are 12 GB', () => {
    const events = [
      event('DATABASE_SIZE', 6 * GB, S, { projectRef: 'p1' }),
      event('DATABASE_SIZE', 6 * GB, S, { projectRef: 'p2' }),
      event('DATABASE_SIZE', 6 * GB, S + DAY, { projectRef: 'p2' }),
    ];
    expect(lines(payg, events)).toEqual([{ DATABASE_SIZE: 50 }]);
  });

  it('refuses a timeline whose cycles leave a gap, or a plan change inside a cycle', () => {
    expect(() =>
      referenceBill(
        {
          cycles: [full, { start: E + 1, end: E + DAY, scheduledEnd: E + DAY }],
          states: [{ from: S, planId: 'pro', capOn: true }],
        },
        [],
      ),
    ).toThrow(RangeError);
    expect(() =>
      referenceBill(
        {
          cycles: [full],
          states: [
            { from: S, planId: 'pro', capOn: true },
            { from: S + DAY, planId: 'team', capOn: false },
          ],
        },
        [],
      ),
    ).toThrow(RangeError);
  });
});
