import type { RestrictionStatus, Violation } from '../../organization/restriction.ts';
import type { RestrictionData } from '../../schemas/organization.ts';
import type { QuotaMetric } from '../quotas.ts';
import {
  usageViolationsOf,
  USAGE_VIOLATION_ORDER,
  type UsageViolation,
} from './usage-violations.ts';

/** How long a grace period lasts from the moment capped usage first goes above a quota. */
export const GRACE_PERIOD_SECONDS = 7 * 86_400;

/** An organization's restriction, as its `restriction_status` and `restriction_data` hold it. */
export interface RestrictionState {
  readonly status: RestrictionStatus | null;
  /** Unix seconds; set in grace_period and grace_period_over, null otherwise. */
  readonly grace_period_end: number | null;
  readonly violations: readonly Violation[];
}

export const UNRESTRICTED: RestrictionState = {
  status: null,
  grace_period_end: null,
  violations: [],
};

/**
 * What the billing job, usage ingestion or a billing change saw. `exceeded` lists the capped metrics
 * above their quota in the cycle that starts at `cycleStart` (for a Free or spend-capped organization:
 * `exceededCappedMetrics` of its usage records, which is empty with the cap off).
 * - `usage`: the current cycle so far (ingestion, or the job's periodic pass);
 * - `cycle_closed`: the cycle that has just ended, at its close;
 * - `plan_upgraded`, `spend_cap_turned_off`: the change, once it is applied;
 * - `payment_overdue`: an invoice is still unpaid 14 days after finalization;
 * - `overdue_payment_settled`: no invoice is overdue any more.
 */
export type RestrictionObservation =
  | {
      readonly kind: 'usage' | 'cycle_closed';
      readonly cycleStart: number;
      readonly exceeded: readonly QuotaMetric[];
    }
  | {
      readonly kind:
        'plan_upgraded' | 'spend_cap_turned_off' | 'payment_overdue' | 'overdue_payment_settled';
    };

/** Why the restriction changed; each transition is recorded with one (§11). */
export const RESTRICTION_REASONS = [
  'quota_exceeded',
  'grace_period_ended',
  'exceeded_after_grace_period',
  'cycle_ended_under_quota',
  'plan_upgraded',
  'spend_cap_turned_off',
  'payment_overdue',
  'overdue_payment_settled',
] as const;
export type RestrictionReason = (typeof RESTRICTION_REASONS)[number];

/** One change of the restriction, as it is recorded (§11: with its time and reason). */
export interface RestrictionTransition {
  readonly at: number;
  readonly from: RestrictionStatus | null;
  readonly to: RestrictionStatus | null;
  readonly reason: RestrictionReason;
  /** The capped metrics above their quota that caused it; empty for the other reasons. */
  readonly metrics: readonly QuotaMetric[];
  /** The state after it. */
  readonly violations: readonly Violation[];
  readonly grace_period_end: number | null;
}

export interface RestrictionStep {
  readonly state: RestrictionState;
  /** In order; empty when nothing changed. */
  readonly transitions: readonly RestrictionTransition[];
}

/**
 * The usage side of a restriction and the overdue payment, apart: an overdue payment restricts the
 * organization whatever its usage, and settling it gives back whatever its usage had come to.
 */
interface UsageRestriction {
  readonly status: RestrictionStatus | null;
  readonly graceEnd: number | null;
  readonly codes: readonly UsageViolation[];
}
interface Parts {
  readonly usage: UsageRestriction;
  readonly overdue: boolean;
}

const NO_USAGE: UsageRestriction = { status: null, graceEnd: null, codes: [] };

/**
 * The state's two sides. A restricted state with an overdue payment tells its usage side by its grace
 * end: none after a usage restriction (which clears it), else the grace period it masks, over once
 * its end has passed. A grace state without its end counts as ending now.
 */
function decompose(state: RestrictionState, now: number): Parts {
  const overdue = state.violations.includes('overdue_payment');
  const codes = USAGE_VIOLATION_ORDER.filter((code) => state.violations.includes(code));
  if (state.status === null || codes.length === 0) return { usage: NO_USAGE, overdue };
  const end = state.grace_period_end;
  if (state.status !== 'restricted') {
    return { usage: { status: state.status, graceEnd: end ?? now, codes }, overdue };
  }
  if (!overdue || end === null)
    return { usage: { status: 'restricted', graceEnd: null, codes }, overdue };
  const status = now < end ? 'grace_period' : 'grace_period_over';
  return { usage: { status, graceEnd: end, codes }, overdue };
}

function compose(parts: Parts): RestrictionState {
  const { usage, overdue } = parts;
  const violations: Violation[] = [
    ...usage.codes,
    ...(overdue ? ['overdue_payment' as const] : []),
  ];
  const status = overdue ? 'restricted' : usage.status;
  if (status === null) return UNRESTRICTED;
  const inGrace = usage.status === 'grace_period' || usage.status === 'grace_period_over';
  return { status, grace_period_end: inGrace ? usage.graceEnd : null, violations };
}

interface Step {
  readonly parts: Parts;
  readonly reason: RestrictionReason;
}

/** Capped usage above a quota: a grace period, then over, then restricted in a later cycle. */
function exceededSteps(
  parts: Parts,
  exceeded: readonly QuotaMetric[],
  cycleStart: number,
  now: number,
): Step[] {
  const found = usageViolationsOf(exceeded);
  if (found.length === 0) return [];
  const usage = parts.usage;
  const withUsage = (next: UsageRestriction) => ({ ...parts, usage: next });
  if (usage.status === null) {
    const grace = {
      status: 'grace_period' as const,
      graceEnd: now + GRACE_PERIOD_SECONDS,
      codes: found,
    };
    return [{ parts: withUsage(grace), reason: 'quota_exceeded' }];
  }
  const steps: Step[] = [];
  const codes = USAGE_VIOLATION_ORDER.filter(
    (code) => usage.codes.includes(code) || found.includes(code),
  );
  let current: UsageRestriction = { ...usage, codes };
  if (codes.length > usage.codes.length)
    steps.push({ parts: withUsage(current), reason: 'quota_exceeded' });
  const end = current.graceEnd;
  if (current.status === 'restricted' || end === null || now < end) return steps;
  if (current.status === 'grace_period') {
    current = { ...current, status: 'grace_period_over' };
    steps.push({ parts: withUsage(current), reason: 'grace_period_ended' });
  }
  // A cycle that starts after the grace period has ended starts in grace_period_over.
  if (end <= cycleStart) {
    current = { status: 'restricted', graceEnd: null, codes };
    steps.push({ parts: withUsage(current), reason: 'exceeded_after_grace_period' });
  }
  return steps;
}

function clearUsage(parts: Parts, reason: RestrictionReason): Step[] {
  return parts.usage.status === null ? [] : [{ parts: { ...parts, usage: NO_USAGE }, reason }];
}

function stepsOf(parts: Parts, observation: RestrictionObservation, now: number): Step[] {
  switch (observation.kind) {
    case 'usage':
      return exceededSteps(parts, observation.exceeded, observation.cycleStart, now);
    case 'cycle_closed':
      return usageViolationsOf(observation.exceeded).length === 0
        ? clearUsage(parts, 'cycle_ended_under_quota')
        : exceededSteps(parts, observation.exceeded, observation.cycleStart, now);
    case 'plan_upgraded':
    case 'spend_cap_turned_off':
      return clearUsage(parts, observation.kind);
    case 'payment_overdue':
      return parts.overdue
        ? []
        : [{ parts: { ...parts, overdue: true }, reason: 'payment_overdue' }];
    case 'overdue_payment_settled':
      return parts.overdue
        ? [{ parts: { ...parts, overdue: false }, reason: 'overdue_payment_settled' }]
        : [];
  }
}

function sameState(a: RestrictionState, b: RestrictionState): boolean {
  return (
    a.status === b.status &&
    a.grace_period_end === b.grace_period_end &&
    a.violations.length === b.violations.length &&
    a.violations.every((code, i) => b.violations[i] === code)
  );
}

/**
 * The restriction lifecycle of product-decisions §11, as a pure step: the state after `observation`
 * at `now` (unix seconds), and the transitions that led there, to be recorded.
 * - capped usage above a quota with no restriction: `grace_period`, ending 7 days later, with the
 *   metrics' violation codes (more metrics later add their codes);
 * - above a quota once the grace period has ended: `grace_period_over`;
 * - above a quota in a cycle that started after the grace period had ended (so in
 *   `grace_period_over`): `restricted`, through `grace_period_over` if it was never recorded;
 * - a cycle that closes under every quota, an upgrade, or turning the cap off: cleared;
 * - an overdue payment: `restricted` with `overdue_payment` whatever the usage, until it is settled,
 *   which gives back what the usage had come to.
 * Applying the same observation again at the same moment changes nothing and records nothing.
 */
export function nextRestrictionState(
  current: RestrictionState,
  observation: RestrictionObservation,
  now: number,
): RestrictionStep {
  const metrics = 'exceeded' in observation ? observation.exceeded : [];
  const transitions: RestrictionTransition[] = [];
  let state = current;
  for (const step of stepsOf(decompose(current, now), observation, now)) {
    const next = compose(step.parts);
    if (sameState(state, next)) continue;
    const byUsage =
      step.reason === 'quota_exceeded' ||
      step.reason === 'grace_period_ended' ||
      step.reason === 'exceeded_after_grace_period';
    transitions.push({
      at: now,
      from: state.status,
      to: next.status,
      reason: step.reason,
      metrics: byUsage ? metrics : [],
      violations: next.violations,
      grace_period_end: next.grace_period_end,
    });
    state = next;
  }
  return { state, transitions };
}

/** The state from the organization's columns. */
export function restrictionStateOf(org: {
  readonly restriction_status: RestrictionStatus | null;
  readonly restriction_data: RestrictionData | null;
}): RestrictionState {
  if (org.restriction_status === null) return UNRESTRICTED;
  return {
    status: org.restriction_status,
    grace_period_end: org.restriction_data?.grace_period_end ?? null,
    violations: org.restriction_data?.violations ?? [],
  };
}

/** The organization's columns for a state: both null when it is not restricted. */
export function restrictionColumns(state: RestrictionState): {
  restriction_status: RestrictionStatus | null;
  restriction_data: RestrictionData | null;
} {
  if (state.status === null) return { restriction_status: null, restriction_data: null };
  return {
    restriction_status: state.status,
    restriction_data: {
      grace_period_end: state.grace_period_end,
      violations: [...state.violations],
    },
  };
}
