import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPPED_METRICS } from '../spend-cap/overage-reading.ts';
import {
  nextRestrictionState,
  restrictionColumns,
  restrictionStateOf,
  UNRESTRICTED,
  type RestrictionObservation,
  type RestrictionState,
  type RestrictionTransition,
} from './restriction-lifecycle.ts';

const DAY = 86_400;
const CYCLE = 30 * DAY;
const origin = 1_800_000_000;
const cycleStartOf = (now: number) => origin + Math.floor((now - origin) / CYCLE) * CYCLE;

type Kind = RestrictionObservation['kind'];
const kinds: Kind[] = [
  'usage',
  'usage',
  'usage',
  'cycle_closed',
  'plan_upgraded',
  'spend_cap_turned_off',
  'payment_overdue',
  'overdue_payment_settled',
];

/** Observations at moments that move forward, each naming the cycle it belongs to. */
const history = (allowed: readonly Kind[]) =>
  fc
    .array(
      fc.record({
        kind: fc.constantFrom(...allowed),
        advance: fc.integer({ min: 0, max: 12 * DAY }),
        exceeded: fc.subarray([...CAPPED_METRICS], { maxLength: 3 }),
      }),
      { maxLength: 25 },
    )
    .map((entries) => {
      let now = origin;
      return entries.map(({ kind, advance, exceeded }): [RestrictionObservation, number] => {
        now += advance;
        const cycleStart = cycleStartOf(now);
        switch (kind) {
          case 'usage':
            return [{ kind, cycleStart, exceeded }, now];
          case 'cycle_closed':
            // At a close, the cycle that has just ended.
            return [{ kind, cycleStart: Math.max(origin, cycleStart - CYCLE), exceeded }, now];
          default:
            return [{ kind } as RestrictionObservation, now];
        }
      });
    });

function replay(steps: readonly [RestrictionObservation, number][]) {
  let state: RestrictionState = UNRESTRICTED;
  const log: RestrictionTransition[] = [];
  const states: RestrictionState[] = [state];
  for (const [observation, now] of steps) {
    const step = nextRestrictionState(state, observation, now);
    state = step.state;
    log.push(...step.transitions);
    states.push(state);
  }
  return { state, log, states };
}

describe('restriction lifecycle properties', () => {
  it('is idempotent: the same observation at the same moment records nothing the second time', () => {
    fc.assert(
      fc.property(history(kinds), (steps) => {
        let state: RestrictionState = UNRESTRICTED;
        for (const [observation, now] of steps) {
          state = nextRestrictionState(state, observation, now).state;
          const again = nextRestrictionState(state, observation, now);
          expect(again.transitions).toEqual([]);
          expect(again.state).toEqual(state);
        }
      }),
    );
  });

  it('never restricts for usage without passing grace_period_over', () => {
    const usageOnly = kinds.filter(
      (k) => k !== 'payment_overdue' && k !== 'overdue_payment_settled',
    );
    fc.assert(
      fc.property(history(usageOnly), (steps) => {
        const { log } = replay(steps);
        log.forEach((transition, i) => {
          if (transition.to !== 'restricted' || transition.from === 'restricted') return;
          expect(transition.from).toBe('grace_period_over');
          expect(log.slice(0, i).some((earlier) => earlier.to === 'grace_period')).toBe(true);
        });
      }),
    );
  });

  it('keeps every state consistent: cleared has no violations, grace has its end', () => {
    fc.assert(
      fc.property(history(kinds), (steps) => {
        for (const state of replay(steps).states) {
          expect(state.status === null).toBe(state.violations.length === 0);
          if (state.status === null) expect(state.grace_period_end).toBeNull();
          if (state.status === 'grace_period' || state.status === 'grace_period_over') {
            expect(state.grace_period_end).not.toBeNull();
            expect(state.violations).not.toContain('overdue_payment');
          }
          if (state.violations.includes('overdue_payment')) expect(state.status).toBe('restricted');
          expect(new Set(state.violations).size).toBe(state.violations.length);
          expect(restrictionStateOf(restrictionColumns(state))).toEqual(state);
        }
      }),
    );
  });

  it('records every change, and each transition starts where the previous one ended', () => {
    fc.assert(
      fc.property(history(kinds), (steps) => {
        const { log, state } = replay(steps);
        let status: RestrictionState['status'] = null;
        for (const transition of log) {
          expect(transition.from).toBe(status);
          status = transition.to;
        }
        expect(status).toBe(state.status);
      }),
    );
  });
});
