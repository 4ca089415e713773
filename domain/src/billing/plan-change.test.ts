import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonthsClamped } from '../calendar/billing-cycle.ts';
import type { PlanId } from '../organization/plans.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import {
  changeInvoice,
  changeInvoiceRecordLines,
  monthlyInvoiceEstimate,
  PlanChangeError,
} from './plan-change.ts';
import { chargeToday, unusedCredit } from './proration.ts';

const START = Date.UTC(2026, 10, 1) / 1000;
const END = addMonthsClamped(START, 1);
const SELF_SERVE: PlanId[] = ['free', 'pro', 'team'];

const cycle = fc
  .tuple(fc.integer({ min: 946_684_800, max: 4_102_444_800 }))
  .map(([start]) => ({ start, end: addMonthsClamped(start, 1) }));
const pair = fc
  .tuple(fc.constantFrom(...SELF_SERVE), fc.constantFrom(...SELF_SERVE))
  .filter(([from, to]) => from !== to);
const usage = fc.array(
  fc.record({ description: fc.string(), amount: fc.integer({ min: 0, max: 5_000_000 }) }),
  { maxLength: 6 },
);
const balance = fc.integer({ min: 0, max: 10_000_000 });

/** The moment a fraction of the way into a cycle, in whole seconds. */
const momentIn = (cycle: { start: number; end: number }, fraction: number) =>
  cycle.start + Math.floor(fraction * (cycle.end - cycle.start));

describe('changeInvoice', () => {
  it('acme-pro to Team a third into the cycle, with $50 of credit', () => {
    const at = START + Math.round((END - START) / 3);
    const invoice = changeInvoice({
      from: 'pro',
      to: 'team',
      cycle: { start: START, end: END },
      at,
      usageLines: [{ description: 'Custom Domain', amount: 333 }],
      balanceCents: 5000,
    });
    const unused = unusedCredit(2500, START, END, at);
    expect(invoice.lines.map((line) => [line.description, line.amount])).toEqual([
      ['Custom Domain', 333],
      ['Unused time on Pro plan', -unused],
      ['Team plan', 59_900],
    ]);
    expect(invoice.totalCents).toBe(333 - unused + 59_900);
    expect(invoice.creditAppliedCents).toBe(5000);
    expect(invoice.chargeTodayCents).toBe(333 - unused + 59_900 - 5000);
    expect(invoice.balanceAfterCents).toBe(0);
    expect(invoice.newCycle).toEqual({ start: at, end: addMonthsClamped(at, 1) });
  });

  it('records the unused time as the one proration line, at the old fee for its share', () => {
    const at = START + (END - START) / 2;
    const invoice = changeInvoice({
      from: 'pro',
      to: 'team',
      cycle: { start: START, end: END },
      at,
      usageLines: [],
      balanceCents: 0,
    });
    const lines = changeInvoiceRecordLines(invoice, [], 2500);
    expect(
      lines.map((l) => [l.description, l.amount, l.proration, l.quantity, l.unit_price]),
    ).toEqual([
      ['Unused time on Pro plan', -1250, true, 0.5, -2500],
      ['Team plan', 59_900, false, 1, 59_900],
    ]);
  });

  it('credits a downgrade to Free to the balance, never to the card', () => {
    const at = START + (END - START) / 2;
    const invoice = changeInvoice({
      from: 'team',
      to: 'free',
      cycle: { start: START, end: END },
      at,
      usageLines: [],
      balanceCents: 100,
    });
    expect(invoice.direction).toBe('downgrade');
    expect(invoice.chargeTodayCents).toBe(0);
    expect(invoice.balanceAfterCents).toBe(100 + unusedCredit(59_900, START, END, at));
  });

  it('refuses no change, enterprise, and a moment outside the cycle', () => {
    const base = { cycle: { start: START, end: END }, at: START, usageLines: [], balanceCents: 0 };
    expect(() => changeInvoice({ ...base, from: 'pro', to: 'pro' })).toThrow(PlanChangeError);
    expect(() => changeInvoice({ ...base, from: 'pro', to: 'enterprise' })).toThrow(
      PlanChangeError,
    );
    expect(() => changeInvoice({ ...base, from: 'pro', to: 'team', at: END })).toThrow(
      PlanChangeError,
    );
  });

  it('credits the whole old price at the cycle start and nothing at its end', () => {
    fc.assert(
      fc.property(pair, cycle, ([from, to], period) => {
        const price = BILLING_PLANS[from].monthlyPriceCents ?? 0;
        const input = { from, to, cycle: period, usageLines: [], balanceCents: 0 };
        const atStart = changeInvoice({ ...input, at: period.start });
        const unusedAtStart = atStart.lines.find((line) => line.kind === 'unused_time');
        expect(Math.abs(unusedAtStart?.amount ?? 0)).toBe(price);
        const atEnd = changeInvoice({ ...input, at: period.end - 1 });
        const unusedAtEnd = atEnd.lines.find((line) => line.kind === 'unused_time');
        expect(-(unusedAtEnd?.amount ?? 0)).toBeLessThanOrEqual(Math.ceil(price / 86_400));
      }),
    );
  });

  it('sums its lines; charges max(0, total − balance); never leaves a negative balance', () => {
    fc.assert(
      fc.property(
        pair,
        cycle,
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        usage,
        balance,
        ([from, to], period, fraction, usageLines, credit) => {
          const at = momentIn(period, fraction);
          const invoice = changeInvoice({
            from,
            to,
            cycle: period,
            at,
            usageLines,
            balanceCents: credit,
          });
          const sum = invoice.lines.reduce((total, line) => total + line.amount, 0);
          expect(invoice.totalCents).toBe(sum);
          expect(invoice.chargeTodayCents).toBe(Math.max(0, sum - credit));
          expect(invoice.chargeTodayCents + invoice.creditAppliedCents).toBe(Math.max(0, sum));
          expect(invoice.balanceAfterCents).toBeGreaterThanOrEqual(0);
          // Money is neither made nor lost: what was owed is paid by the card, the balance, or both.
          expect(credit - invoice.balanceAfterCents + invoice.chargeTodayCents).toBe(sum);
        },
      ),
    );
  });

  it("is exactly the spec's formula when there is no usage so far", () => {
    fc.assert(
      fc.property(
        pair,
        cycle,
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        balance,
        ([from, to], period, fraction, credit) => {
          const at = momentIn(period, fraction);
          const invoice = changeInvoice({
            from,
            to,
            cycle: period,
            at,
            usageLines: [],
            balanceCents: credit,
          });
          const unused = unusedCredit(
            BILLING_PLANS[from].monthlyPriceCents ?? 0,
            period.start,
            period.end,
            at,
          );
          expect(invoice.chargeTodayCents).toBe(
            chargeToday(BILLING_PLANS[to].monthlyPriceCents ?? 0, unused, credit),
          );
        },
      ),
    );
  });

  it('never credits the same time twice across two changes in one cycle', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SELF_SERVE),
        fc.constantFrom(...SELF_SERVE),
        fc.constantFrom(...SELF_SERVE),
        cycle,
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (a, b, c, period, f1, f2) => {
          fc.pre(a !== b && b !== c);
          const t1 = momentIn(period, f1);
          const first = changeInvoice({
            from: a,
            to: b,
            cycle: period,
            at: t1,
            usageLines: [],
            balanceCents: 0,
          });
          const second = first.newCycle;
          const t2 = momentIn(second, f2);
          const next = changeInvoice({
            from: b,
            to: c,
            cycle: second,
            at: t2,
            usageLines: [],
            balanceCents: 0,
          });
          // Each credit is for a plan's own paid cycle, and never more than that plan's fee.
          const credited = (invoice: typeof first) =>
            -(invoice.lines.find((line) => line.kind === 'unused_time')?.amount ?? 0);
          expect(credited(first)).toBeLessThanOrEqual(BILLING_PLANS[a].monthlyPriceCents ?? 0);
          expect(credited(next)).toBeLessThanOrEqual(BILLING_PLANS[b].monthlyPriceCents ?? 0);
          const unusedPeriods = [first, next]
            .flatMap((invoice) => invoice.lines.filter((line) => line.kind === 'unused_time'))
            .map((line) => line.period);
          if (unusedPeriods.length === 2) {
            const [p, q] = unusedPeriods as [
              { start: number; end: number },
              { start: number; end: number },
            ];
            // The credited spans do not overlap for the same plan's fee (the second is of the new cycle).
            expect(q.start).toBeGreaterThanOrEqual(p.start);
            expect(next.lines.find((line) => line.kind === 'unused_time')?.period.end).toBe(
              second.end,
            );
          }
        },
      ),
    );
  });
});

describe('monthlyInvoiceEstimate', () => {
  it('is the fee plus compute beyond the credits plus add-ons', () => {
    expect(monthlyInvoiceEstimate('pro', 1000, 0)).toBe(2500);
    expect(monthlyInvoiceEstimate('pro', 3500, 1000)).toBe(2500 + 2500 + 1000);
    expect(monthlyInvoiceEstimate('team', 0, 0)).toBe(59_900);
    expect(monthlyInvoiceEstimate('free', 9999, 9999)).toBe(0);
  });
});
