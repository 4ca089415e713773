import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PLAN_IDS } from '../organization/plans.ts';
import { COMPUTE_SIZE_METRICS } from './compute.ts';
import type { ComputeHours } from './invoice-input.ts';
import {
  cycleUsageLines,
  lateUsageLines,
  type ClosedCycleTerms,
  type CycleUsage,
} from './late-usage.ts';
import { QUOTA_METRICS, type QuotaMetric } from './quotas.ts';

const DAY = 86_400;
const REFS = ['p1', 'p2', 'p3'] as const;

const terms: fc.Arbitrary<ClosedCycleTerms> = fc
  .record({
    planId: fc.constantFrom(...PLAN_IDS),
    usageBillingEnabled: fc.boolean(),
    start: fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }),
    days: fc.integer({ min: 28, max: 31 }),
    projects: fc.subarray([...REFS]),
  })
  .map((r) => ({
    planId: r.planId,
    usageBillingEnabled: r.usageBillingEnabled,
    period: { start: r.start, end: r.start + r.days * DAY },
    projects: r.projects.map((ref) => ({ ref, name: `Project ${ref}` })),
  }));

/** One compute resource of the cycle, identified by its position in a fixed list. */
const RESOURCES = REFS.flatMap((projectRef) => [
  ...COMPUTE_SIZE_METRICS.slice(0, 3).map(
    (metric) => ({ projectRef, kind: 'primary', metric }) as const,
  ),
  { projectRef, kind: 'read_replica', metric: 'COMPUTE_HOURS_SM' } as const,
  { projectRef, kind: 'branch' } as const,
]);

/** Usage as it grows: each step only adds (hours and summed metrics never shrink). */
const growth = fc.record({
  hours: fc.array(
    fc.integer({ min: 0, max: 40_000 }).map((h) => h / 100),
    {
      minLength: RESOURCES.length,
      maxLength: RESOURCES.length,
    },
  ),
  usage: fc.dictionary(fc.constantFrom(...QUOTA_METRICS), fc.nat({ max: 400e9 }), {
    maxKeys: 6,
  }),
});
type Growth = typeof growth extends fc.Arbitrary<infer T> ? T : never;

function accumulate(steps: readonly Growth[]): CycleUsage[] {
  const hours = RESOURCES.map(() => 0);
  const usage: Partial<Record<QuotaMetric, number>> = {};
  return steps.map((step) => {
    step.hours.forEach((h, i) => (hours[i] = Math.round(((hours[i] ?? 0) + h) * 100) / 100));
    for (const [metric, value] of Object.entries(step.usage) as [QuotaMetric, number][]) {
      usage[metric] = (usage[metric] ?? 0) + value;
    }
    const compute: ComputeHours[] = RESOURCES.flatMap((resource, i) =>
      (hours[i] ?? 0) > 0 ? [{ ...resource, hours: hours[i] ?? 0, running: false }] : [],
    );
    return { compute, usage: { ...usage } };
  });
}

const total = (lines: readonly { amount: number }[]) =>
  lines.reduce((sum, line) => sum + line.amount, 0);

describe('late usage properties', () => {
  it('late lines and what was billed add up to what a single close would have billed', () => {
    fc.assert(
      fc.property(terms, fc.array(growth, { minLength: 2, maxLength: 4 }), (cycle, steps) => {
        // The close bills the first state; each later step is billed late, on a later invoice.
        const states = accumulate(steps);
        const [closed] = states;
        if (!closed) return;
        let billed = total(cycleUsageLines(cycle, closed));
        for (let i = 1; i < states.length; i++) {
          const before = states[i - 1];
          const after = states[i];
          if (!before || !after) continue;
          const late = lateUsageLines(cycle, before, after);
          for (const line of late) {
            expect(line.amount).not.toBe(0);
            expect(Number.isSafeInteger(line.amount)).toBe(true);
            expect(line.description).toMatch(/ \(late usage, .+\)$/);
          }
          billed += total(late);
        }
        const last = states.at(-1);
        if (last) expect(billed).toBe(total(cycleUsageLines(cycle, last)));
      }),
    );
  });

  it('bills nothing more for usage already billed', () => {
    fc.assert(
      fc.property(terms, growth, (cycle, step) => {
        const [usage] = accumulate([step]);
        if (usage) expect(lateUsageLines(cycle, usage, usage)).toEqual([]);
      }),
    );
  });

  it('never bills growing usage less than nothing', () => {
    fc.assert(
      fc.property(terms, fc.array(growth, { minLength: 2, maxLength: 2 }), (cycle, steps) => {
        const [before, after] = accumulate(steps);
        if (!before || !after) return;
        // Credits may go down, but never by more than the compute that came with them.
        expect(total(lateUsageLines(cycle, before, after))).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});
