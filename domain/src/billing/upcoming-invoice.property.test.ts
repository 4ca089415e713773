import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Q from '../money/rational.ts';
import { roundHalfUp } from '../money/round.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { ADDON_METRICS } from './addons.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import { COMPUTE_DEFINITIONS, COMPUTE_SIZE_METRICS, type ComputeMetric } from './compute.ts';
import type { ComputeHours, UpcomingInvoiceInput } from './invoice-input.ts';
import { lineQuantities } from './line-quantities.ts';
import { QUOTA_DEFINITIONS, QUOTA_METRICS } from './quotas.ts';
import { explainProjection } from './projection-explained.ts';
import { projectionBasis } from './projection.ts';
import { priceRational } from './unit-price.ts';
import {
  accruedInvoiceLines,
  computeUpcomingInvoice,
  projectedInvoiceLines,
} from './upcoming-invoice.ts';

const DAY = 86_400;
const REFS = ['p1', 'p2', 'p3', 'p4'] as const;
/** Hours with up to two decimals, as a number a caller would pass. */
const hours = fc.integer({ min: 0, max: 80_000 }).map((h) => h / 100);

const computeEntry: fc.Arbitrary<ComputeHours> = fc.oneof(
  fc.record({
    projectRef: fc.constantFrom(...REFS),
    kind: fc.constantFrom('primary' as const, 'read_replica' as const),
    metric: fc.constantFrom(...COMPUTE_SIZE_METRICS),
    hours,
    running: fc.boolean(),
  }),
  fc.record({
    projectRef: fc.constantFrom(...REFS),
    kind: fc.constant('branch' as const),
    hours,
    running: fc.boolean(),
  }),
);

const input: fc.Arbitrary<UpcomingInvoiceInput> = fc
  .record({
    planId: fc.constantFrom(...PLAN_IDS),
    usageBillingEnabled: fc.boolean(),
    start: fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }),
    days: fc.integer({ min: 1, max: 31 }),
    at: fc.double({ min: -0.1, max: 1.1, noNaN: true }),
    projects: fc.subarray([...REFS]),
    compute: fc.array(computeEntry, { maxLength: 8 }),
    addons: fc.array(
      fc.record({
        projectRef: fc.constantFrom(...REFS),
        addon: fc.constantFrom(...ADDON_METRICS),
        hours,
        running: fc.boolean(),
      }),
      { maxLength: 6 },
    ),
    usage: fc.dictionary(fc.constantFrom(...QUOTA_METRICS), fc.nat({ max: 2e12 }), { maxKeys: 6 }),
  })
  .map((r) => ({
    planId: r.planId,
    usageBillingEnabled: r.usageBillingEnabled,
    period: { start: r.start, end: r.start + r.days * DAY },
    asOf: r.start + Math.round(r.at * r.days * DAY),
    projects: r.projects.map((ref) => ({ ref, name: `Project ${ref}` })),
    compute: r.compute,
    addons: r.addons,
    usage: r.usage,
  }));

const sum = (amounts: number[]) => amounts.reduce((a, b) => a + b, 0);

describe('upcoming invoice properties', () => {
  it('totals are the exact sums of the lines, every amount in whole cents', () => {
    fc.assert(
      fc.property(input, (i) => {
        const invoice = computeUpcomingInvoice(i);
        expect(invoice.amount_total).toBe(sum(invoice.lines.map((l) => l.amount)));
        expect(invoice.amount_projected).toBe(sum(projectedInvoiceLines(i).map((l) => l.amount)));
        for (const line of invoice.lines) {
          expect(Number.isSafeInteger(line.amount)).toBe(true);
          expect(line.amount_before_discount).toBe(line.amount);
        }
      }),
    );
  });

  it('splits every line into a breakdown that adds up to it', () => {
    fc.assert(
      fc.property(input, (i) => {
        for (const line of [...accruedInvoiceLines(i), ...projectedInvoiceLines(i)]) {
          if (line.breakdown.length > 0)
            expect(sum(line.breakdown.map((b) => b.amount))).toBe(line.amount);
        }
      }),
    );
  });

  it('rounds once, at the line: each compute and overage line is the rounded exact amount', () => {
    fc.assert(
      fc.property(input, (i) => {
        const lines = accruedInvoiceLines(i);
        for (const line of lines.filter((l) => l.usage_metric?.startsWith('COMPUTE_HOURS'))) {
          const kind = line.metadata.is_branch
            ? 'branch'
            : line.metadata.is_read_replica
              ? 'read_replica'
              : 'primary';
          const entries = i.compute.filter(
            (c) =>
              c.kind === kind &&
              (kind === 'branch' || (c.kind !== 'branch' && c.metric === line.usage_metric)),
          );
          const metric = line.usage_metric as ComputeMetric;
          const price = priceRational(COMPUTE_DEFINITIONS[metric].hourlyPrice);
          const exact = Q.multiply(
            Q.sum(entries.map((c) => Q.rationalFromNumber(c.hours as number))),
            price,
          );
          expect(line.amount).toBe(roundHalfUp(exact));
        }
        for (const metric of QUOTA_METRICS) {
          const quota = QUOTA_DEFINITIONS[metric].paid;
          const line = lines.find((l) => l.usage_metric === metric);
          if (!line || quota?.scope !== 'organization') continue;
          const over = Q.subtract(
            Q.rationalFromNumber(i.usage[metric] as number),
            Q.rationalFromNumber(quota.included),
          );
          expect(line.amount).toBe(
            roundHalfUp(Q.multiply(over, priceRational(QUOTA_DEFINITIONS[metric].price))),
          );
        }
      }),
    );
  });

  it('never gives compute credits beyond the compute billed or the plan credits', () => {
    fc.assert(
      fc.property(input, (i) => {
        for (const lines of [accruedInvoiceLines(i), projectedInvoiceLines(i)]) {
          const compute = sum(
            lines.filter((l) => l.usage_metric?.startsWith('COMPUTE_HOURS')).map((l) => l.amount),
          );
          const credits = lines.find((l) => l.description === 'Compute Credits')?.amount ?? 0;
          expect(credits).toBeLessThanOrEqual(0);
          expect(-credits).toBeLessThanOrEqual(compute);
          expect(-credits).toBeLessThanOrEqual(BILLING_PLANS[i.planId].computeCreditsCents ?? 0);
          if (i.planId === 'free') expect(compute).toBe(0);
        }
      }),
    );
  });

  it('shows no "$0.00" overage or compute credits line', () => {
    fc.assert(
      fc.property(input, (i) => {
        for (const lines of [accruedInvoiceLines(i), projectedInvoiceLines(i)]) {
          const silent = lines.filter(
            (l) =>
              l.amount === 0 &&
              (l.description === 'Compute Credits' ||
                QUOTA_METRICS.some((metric) => metric === l.usage_metric)),
          );
          expect(silent).toEqual([]);
        }
      }),
    );
  });

  it('projects no less than what has accrued', () => {
    fc.assert(
      fc.property(input, (i) => {
        const invoice = computeUpcomingInvoice(i);
        expect(invoice.amount_projected).toBeGreaterThanOrEqual(invoice.amount_total);
      }),
    );
  });

  it('finalizes at the cycle end exactly what it projected', () => {
    fc.assert(
      fc.property(input, (i) => {
        const atEnd = { ...i, asOf: i.period.end };
        const invoice = computeUpcomingInvoice(atEnd);
        expect(invoice.amount_projected).toBe(invoice.amount_total);
        expect(projectedInvoiceLines(atEnd)).toEqual(accruedInvoiceLines(atEnd));
      }),
    );
  });

  it('agrees with the projection when the running resources are carried to the end by hand', () => {
    fc.assert(
      fc.property(input, (i) => {
        const asOf = Math.min(i.period.end, Math.max(i.period.start, i.asOf));
        // From the whole hour the projection starts at: the hours that remain are whole.
        const remaining = Q.rational(i.period.end - projectionBasis(i.period, asOf), 3600);
        const carried = <T extends { hours: number | Q.Rational; running: boolean }>(e: T): T => {
          const h = typeof e.hours === 'number' ? Q.rationalFromNumber(e.hours) : e.hours;
          return { ...e, hours: e.running ? Q.add(h, remaining) : h };
        };
        // Only entries with no usage, so extrapolation plays no part here.
        const noUsage = { ...i, usage: {} };
        const byHand = {
          ...noUsage,
          asOf: i.period.end,
          compute: i.compute.map(carried),
          addons: i.addons.map(carried),
        };
        expect(projectedInvoiceLines(noUsage)).toEqual(accruedInvoiceLines(byHand));
      }),
    );
  });

  it('projects the same total from every second of the same hour', () => {
    fc.assert(
      fc.property(input, fc.integer({ min: 0, max: 3599 }), (i, offset) => {
        const { start, end } = i.period;
        // Two moments of the same hour of the cycle (reloads a second apart, or half an hour).
        const hour =
          start + Math.floor((Math.min(end - 1, Math.max(start, i.asOf)) - start) / 3600) * 3600;
        const first = computeUpcomingInvoice({ ...i, asOf: hour + 1 });
        const second = computeUpcomingInvoice({ ...i, asOf: Math.min(end - 1, hour + 1 + offset) });
        expect(second.amount_projected).toBe(first.amount_projected);
        expect(second.projection).toEqual(first.projection);
      }),
    );
  });

  it('explains the projection in rows that add up to both totals', () => {
    fc.assert(
      fc.property(input, (i) => {
        const invoice = computeUpcomingInvoice(i);
        const explained = explainProjection(invoice);
        expect(explained.soFar).toBe(invoice.amount_total);
        expect(explained.projected).toBe(invoice.amount_projected);
        expect(invoice.projection.lines.reduce((total, line) => total + line.amount, 0)).toBe(
          invoice.amount_projected,
        );
        expect(invoice.projection.remaining_hours).toBe(
          (i.period.end - projectionBasis(i.period, i.asOf)) / 3600,
        );
        for (const row of explained.rows) expect(row.how).not.toBe('');
      }),
    );
  });
});

describe('every line reconciles by hand', () => {
  const makesAmount = (quantity: number, unitPrice: number, amount: number) =>
    roundHalfUp(Q.multiply(Q.rationalFromNumber(quantity), Q.rationalFromNumber(unitPrice))) ===
    amount;

  it('quantity × unit_price rounds half up to the amount, for every line', () => {
    fc.assert(
      fc.property(input, (i) => {
        for (const line of [...accruedInvoiceLines(i), ...projectedInvoiceLines(i)]) {
          // Credits, an add-on priced twice (first project, others) and an enterprise plan without
          // a contract yet have a price too.
          expect(makesAmount(line.quantity, line.unit_price, line.amount)).toBe(true);
        }
      }),
    );
  });

  it('an overage line bills its usage less the included quota, in the unit of its price', () => {
    fc.assert(
      fc.property(input, (i) => {
        for (const line of accruedInvoiceLines(i)) {
          const metric = line.usage_metric;
          if (metric === null || !(QUOTA_METRICS as readonly string[]).includes(metric)) continue;
          const { units } = QUOTA_DEFINITIONS[metric as (typeof QUOTA_METRICS)[number]].priceUnit;
          expect(line.usage_original).not.toBeNull();
          expect(line.included_quantity).not.toBeNull();
          // usage_original is kept to two decimals of its unit, the quantity to six of the price's.
          const billable = Q.divide(
            Q.subtract(
              Q.rationalFromNumber(line.usage_original ?? 0),
              Q.rationalFromNumber(line.included_quantity ?? 0),
            ),
            Q.rational(units),
          );
          const gap = Q.toNumber(Q.subtract(billable, Q.rationalFromNumber(line.quantity)), 9);
          expect(Math.abs(gap)).toBeLessThanOrEqual(0.005 / units + 0.5e-6);
        }
      }),
    );
  });

  it('the quantity shown on the invoice, times the price shown, is the amount to the cent', () => {
    fc.assert(
      fc.property(input, (i) => {
        for (const line of [...accruedInvoiceLines(i), ...projectedInvoiceLines(i)]) {
          const shown = lineQuantities(line);
          if (!shown) continue;
          const quantity = Number(shown.billed.split(' ')[0]?.replaceAll(',', ''));
          const price = /^\$([\d.,]+) per /.exec(shown.unitPrice)?.[1]?.replaceAll(',', '');
          expect(price).toBeDefined();
          // Dollars per unit as shown, in cents.
          const cents = Q.multiply(Q.rationalFromNumber(Number(price)), Q.rational(100));
          expect(roundHalfUp(Q.multiply(Q.rationalFromNumber(quantity), cents))).toBe(line.amount);
        }
      }),
    );
  });
});
