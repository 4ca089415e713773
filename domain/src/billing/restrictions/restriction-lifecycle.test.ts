import { describe, expect, it } from 'vitest';
import type { QuotaMetric } from '../quotas.ts';
import {
  GRACE_PERIOD_SECONDS,
  nextRestrictionState,
  restrictionColumns,
  restrictionStateOf,
  UNRESTRICTED,
  type RestrictionObservation,
  type RestrictionState,
} from './restriction-lifecycle.ts';
import { usageViolationsOf } from './usage-violations.ts';

const DAY = 86_400;
const cycle1 = 1_800_000_000;
const cycle2 = cycle1 + 30 * DAY;
const cycle3 = cycle2 + 30 * DAY;
const usage = (cycleStart: number, ...exceeded: QuotaMetric[]): RestrictionObservation => ({
  kind: 'usage',
  cycleStart,
  exceeded,
});

function run(steps: readonly [RestrictionObservation, number][], from = UNRESTRICTED) {
  let state: RestrictionState = from;
  const log = [];
  for (const [observation, now] of steps) {
    const step = nextRestrictionState(state, observation, now);
    state = step.state;
    log.push(...step.transitions);
  }
  return { state, log };
}

describe('usageViolationsOf', () => {
  it("maps capped metrics to the spec's codes, each once", () => {
    expect(usageViolationsOf(['STORAGE_SIZE', 'EGRESS', 'CACHED_EGRESS'])).toEqual([
      'exceed_egress_quota',
      'exceed_storage_size_quota',
    ]);
    expect(usageViolationsOf(['REALTIME_PEAK_CONNECTIONS', 'FUNCTION_INVOCATIONS'])).toEqual([
      'exceed_edge_functions_invocations_quota',
      'exceed_realtime_connection_count_quota',
    ]);
    expect(usageViolationsOf(['STORAGE_IMAGES_TRANSFORMED', 'DISK_SIZE_GB_HOURS_GP3'])).toEqual([]);
  });
});

describe('nextRestrictionState', () => {
  const t = cycle1 + 20 * DAY;

  it('starts a 7-day grace period when capped usage goes above a quota', () => {
    const step = nextRestrictionState(UNRESTRICTED, usage(cycle1, 'EGRESS'), t);
    expect(step.state).toEqual({
      status: 'grace_period',
      grace_period_end: t + GRACE_PERIOD_SECONDS,
      violations: ['exceed_egress_quota'],
    });
    expect(step.transitions).toEqual([
      {
        at: t,
        from: null,
        to: 'grace_period',
        reason: 'quota_exceeded',
        metrics: ['EGRESS'],
        violations: ['exceed_egress_quota'],
        grace_period_end: t + GRACE_PERIOD_SECONDS,
      },
    ]);
    expect(nextRestrictionState(step.state, usage(cycle1, 'EGRESS'), t).transitions).toEqual([]);
  });

  it('adds the codes of more metrics without moving the grace end', () => {
    const { state, log } = run([
      [usage(cycle1, 'EGRESS'), t],
      [usage(cycle1, 'EGRESS', 'STORAGE_SIZE'), t + DAY],
    ]);
    expect(state).toEqual({
      status: 'grace_period',
      grace_period_end: t + GRACE_PERIOD_SECONDS,
      violations: ['exceed_egress_quota', 'exceed_storage_size_quota'],
    });
    expect(log.map((entry) => entry.reason)).toEqual(['quota_exceeded', 'quota_exceeded']);
  });

  it('goes over at the grace end when still above, then restricted in the next cycle', () => {
    const { state, log } = run([
      [usage(cycle1, 'EGRESS'), t],
      [usage(cycle1, 'EGRESS'), t + 6 * DAY],
      [usage(cycle1, 'EGRESS'), t + 7 * DAY],
      // The cycle of the grace period closes over the quota: still grace_period_over.
      [{ kind: 'cycle_closed', cycleStart: cycle1, exceeded: ['EGRESS'] }, cycle2 + 3600],
      [usage(cycle2, 'DATABASE_SIZE'), cycle2 + 2 * DAY],
    ]);
    expect(log.map((entry) => [entry.from, entry.to, entry.reason])).toEqual([
      [null, 'grace_period', 'quota_exceeded'],
      ['grace_period', 'grace_period_over', 'grace_period_ended'],
      ['grace_period_over', 'grace_period_over', 'quota_exceeded'],
      ['grace_period_over', 'restricted', 'exceeded_after_grace_period'],
    ]);
    expect(log.at(-1)?.metrics).toEqual(['DATABASE_SIZE']);
    expect(state).toEqual({
      status: 'restricted',
      grace_period_end: null,
      violations: ['exceed_db_size_quota', 'exceed_egress_quota'],
    });
  });

  it('stays in the grace period past its end while the new cycle is under the quota', () => {
    const { state } = run([
      [usage(cycle1, 'EGRESS'), cycle1 + 28 * DAY],
      [{ kind: 'cycle_closed', cycleStart: cycle1, exceeded: ['EGRESS'] }, cycle2 + 3600],
      [usage(cycle2), cycle2 + 10 * DAY],
    ]);
    expect(state.status).toBe('grace_period');
    expect(
      run([[{ kind: 'cycle_closed', cycleStart: cycle2, exceeded: [] }, cycle3]], state).state,
    ).toEqual(UNRESTRICTED);
  });

  it('records a skipped grace_period_over on the way to restricted', () => {
    const { log } = run([
      [usage(cycle1, 'EGRESS'), t],
      [usage(cycle3, 'EGRESS'), cycle3 + DAY],
    ]);
    expect(log.map((entry) => entry.to)).toEqual([
      'grace_period',
      'grace_period_over',
      'restricted',
    ]);
  });

  it('is cleared by an upgrade, by turning the cap off, or by a cycle closing under every quota', () => {
    const over = run([
      [usage(cycle1, 'EGRESS'), t],
      [usage(cycle1, 'EGRESS'), t + 8 * DAY],
    ]).state;
    expect(over.status).toBe('grace_period_over');
    for (const observation of [
      { kind: 'plan_upgraded' },
      { kind: 'spend_cap_turned_off' },
      { kind: 'cycle_closed', cycleStart: cycle2, exceeded: [] },
    ] as const) {
      const step = nextRestrictionState(over, observation, cycle3);
      expect(step.state).toEqual(UNRESTRICTED);
      expect(step.transitions).toHaveLength(1);
      expect(nextRestrictionState(step.state, observation, cycle3).transitions).toEqual([]);
    }
  });

  it('restricts an overdue payment at once and gives back the usage state when it is paid', () => {
    const grace = nextRestrictionState(UNRESTRICTED, usage(cycle1, 'EGRESS'), t).state;
    const overdue = nextRestrictionState(grace, { kind: 'payment_overdue' }, t + DAY);
    expect(overdue.state).toEqual({
      status: 'restricted',
      grace_period_end: t + GRACE_PERIOD_SECONDS,
      violations: ['exceed_egress_quota', 'overdue_payment'],
    });
    const paid = nextRestrictionState(
      overdue.state,
      { kind: 'overdue_payment_settled' },
      t + 2 * DAY,
    );
    expect(paid.state).toEqual(grace);
    expect(paid.transitions[0]).toMatchObject({ from: 'restricted', to: 'grace_period' });
    const alone = nextRestrictionState(UNRESTRICTED, { kind: 'payment_overdue' }, t);
    expect(alone.state).toEqual({
      status: 'restricted',
      grace_period_end: null,
      violations: ['overdue_payment'],
    });
    // An upgrade does not lift an overdue payment.
    expect(nextRestrictionState(alone.state, { kind: 'plan_upgraded' }, t).transitions).toEqual([]);
  });

  it('keeps a usage restriction behind a settled overdue payment', () => {
    const restricted: RestrictionState = {
      status: 'restricted',
      grace_period_end: null,
      violations: ['exceed_egress_quota'],
    };
    const overdue = nextRestrictionState(restricted, { kind: 'payment_overdue' }, cycle3).state;
    const paid = nextRestrictionState(overdue, { kind: 'overdue_payment_settled' }, cycle3 + DAY);
    expect(paid.state).toEqual(restricted);
  });

  it('reads and writes the organization columns', () => {
    expect(restrictionStateOf({ restriction_status: null, restriction_data: null })).toEqual(
      UNRESTRICTED,
    );
    const state: RestrictionState = {
      status: 'grace_period',
      grace_period_end: t,
      violations: ['exceed_egress_quota'],
    };
    expect(restrictionStateOf(restrictionColumns(state))).toEqual(state);
    expect(restrictionColumns(UNRESTRICTED)).toEqual({
      restriction_status: null,
      restriction_data: null,
    });
  });
});
