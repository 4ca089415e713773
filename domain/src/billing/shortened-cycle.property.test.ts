import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Q from '../money/rational.ts';
import { roundHalfUp } from '../money/round.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { ADDON_METRICS } from './addons.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import { COMPUTE_SIZE_METRICS } from './compute.ts';
import { cycleFraction, type ComputeHours, type UpcomingInvoiceInput } from './invoice-input.ts';
import { cycleUsageLines } from './late-usage.ts';
import { isTimeIntegrated } from './overage.ts';
import { QUOTA_DEFINITIONS, QUOTA_METRICS, quotaFor } from './quotas.ts';
import type { UpcomingInvoiceLine } from './schemas.ts';
import { priceRational } from './unit-price.ts';
import { computeUpcomingInvoice } from './upcoming-invoice.ts';

const DAY = 86_400;
const REFS = ['p1', 'p2', 'p3'] as const;
const hours = fc.integer({ min: 0, max: 80_000 }).map((h) => h / 100);

const computeEntry: fc.Arbitrary<ComputeHours> = fc.record({
  projectRef: fc.constantFrom(...REFS),
  kind: fc.constantFrom('primary' as const, 'read_replica' as const),
  metric: fc.constantFrom(...COMPUTE_SIZE_METRICS),
  hours,
  running: fc.boolean(),
});

/** A cycle scheduled for 28–31 days, its usage, and two moments a plan change could cut it at. */
const cycle = fc.record({
  planId: fc.constantFrom(...PLAN_IDS),
  usageBillingEnabled: fc.boolean(),
  start: fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }),
  days: fc.integer({ min: 28, max: 31 }),
  cuts: fc.tuple(
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.double({ min: 0, max: 1, noNaN: true }),
  ),
  projects: fc.subarray([...REFS], { minLength: 1 }),
  compute: fc.array(computeEntry, { maxLength: 6 }),
  addons: fc.array(
    fc.record({
      projectRef: fc.constantFrom(...REFS),
      addon: fc.constantFrom(...ADDON_METRICS),
      hours,
      running: fc.boolean(),
    }),
    { maxLength: 4 },
  ),
  usage: fc.dictionary(fc.constantFrom(...QUOTA_METRICS), fc.nat({ max: 2e12 }), { maxKeys: 8 }),
});
type Cycle = typeof cycle extends fc.Arbitrary<infer T> ? T : never;

/** The cycle cut short at `cut` (0..1 of its scheduled length, at least a second), priced at its end. */
function cutAt(c: Cycle, cut: number): UpcomingInvoiceInput {
  const scheduledEnd = c.start + c.days * DAY;
  const end = Math.min(scheduledEnd, c.start + Math.max(1, Math.round(cut * c.days * DAY)));
  return {
    planId: c.planId,
    usageBillingEnabled: c.usageBillingEnabled,
    period: { start: c.start, end, scheduledEnd },
    asOf: end,
    projects: c.projects.map((ref) => ({ ref, name: `Project ${ref}` })),
    compute: c.compute,
    addons: c.addons,
    usage: c.usage,
  };
}

const amountOf = (lines: readonly UpcomingInvoiceLine[], metric: string) =>
  lines.find((line) => line.usage_metric === metric)?.amount ?? 0;
const creditsOf = (lines: readonly UpcomingInvoiceLine[]) => {
  const credits = lines.find((line) => line.description === 'Compute Credits');
  return credits ? -credits.amount : 0;
};

describe('a cycle cut short: properties', () => {
  it('a cycle that ran to its scheduled end prices exactly as one with no scheduled end', () => {
    fc.assert(
      fc.property(cycle, (c) => {
        const whole = cutAt(c, 1);
        expect(whole.period.end).toBe(whole.period.scheduledEnd);
        const { scheduledEnd: _, ...period } = whole.period;
        expect(computeUpcomingInvoice(whole)).toEqual(computeUpcomingInvoice({ ...whole, period }));
        const terms = { ...whole, projects: whole.projects };
        expect(cycleUsageLines(terms, whole)).toEqual(cycleUsageLines({ ...terms, period }, whole));
      }),
    );
  });

  it('sizes and credits are monotone in the fraction; counts keep their whole quota; whole cents', () => {
    fc.assert(
      fc.property(cycle, (c) => {
        const [shorter, longer] = [...c.cuts].sort((a, b) => a - b) as [number, number];
        const a = cutAt(c, shorter);
        const b = cutAt(c, longer);
        const linesA = computeUpcomingInvoice(a).lines;
        const linesB = computeUpcomingInvoice(b).lines;
        for (const line of [...linesA, ...linesB]) {
          expect(Number.isSafeInteger(line.amount)).toBe(true);
        }
        for (const metric of QUOTA_METRICS) {
          const quota = quotaFor(c.planId, metric);
          if (isTimeIntegrated(metric)) {
            expect(amountOf(linesA, metric)).toBeLessThanOrEqual(amountOf(linesB, metric));
          } else if (quota?.scope === 'organization') {
            expect(amountOf(linesA, metric)).toBe(amountOf(linesB, metric));
          }
        }
        expect(creditsOf(linesA)).toBeLessThanOrEqual(creditsOf(linesB));
      }),
    );
  });

  it('bills a size as max(0, average − quota) × fraction × price and credits up to $10 × fraction, rounded half up once', () => {
    fc.assert(
      fc.property(cycle, fc.boolean(), (c, whole) => {
        const input = cutAt(c, whole ? 1 : c.cuts[0]);
        const { start, end, scheduledEnd = end } = input.period;
        // Counted here from the definition: (end − start) / (scheduled end − start).
        const fraction = Q.rational(end - start, scheduledEnd - start);
        expect(cycleFraction(input.period)).toEqual(fraction);
        const lines = computeUpcomingInvoice(input).lines;
        const compute = lines
          .filter((line) => line.usage_metric?.startsWith('COMPUTE_HOURS'))
          .reduce((total, line) => total + line.amount, 0);
        const monthly = BILLING_PLANS[c.planId].computeCreditsCents ?? 0;
        expect(creditsOf(lines)).toBe(
          Math.min(roundHalfUp(Q.multiply(Q.rational(monthly), fraction)), compute),
        );
        for (const metric of QUOTA_METRICS.filter(isTimeIntegrated)) {
          const line = lines.find((candidate) => candidate.usage_metric === metric);
          if (!line) continue;
          const quota = quotaFor(c.planId, metric);
          const included = Q.multiply(
            Q.rationalFromNumber(quota?.included ?? 0),
            Q.rational(quota?.scope === 'project' ? c.projects.length : 1),
          );
          const over = Q.max(
            Q.ZERO,
            Q.subtract(Q.rationalFromNumber(c.usage[metric] ?? 0), included),
          );
          const exact = Q.multiply(
            Q.multiply(over, fraction),
            priceRational(QUOTA_DEFINITIONS[metric].price),
          );
          expect(line.amount).toBe(roundHalfUp(exact));
        }
      }),
    );
  });
});
