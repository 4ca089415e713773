import { describe, expect, it } from 'vitest';
import * as Q from '../money/rational.ts';
import { cycleFraction, toBillingWindow, type UpcomingInvoiceInput } from './invoice-input.ts';
import { cycleUsageLines, lateUsageLines, type ClosedCycleTerms } from './late-usage.ts';
import { lineQuantities } from './line-quantities.ts';
import type { UpcomingInvoiceLine } from './schemas.ts';
import { accruedInvoiceLines, computeUpcomingInvoice } from './upcoming-invoice.ts';

const HOUR = 3600;
const DAY = 86_400;
const GB = 1e9;
const START = Date.UTC(2026, 10, 20, 12) / 1000; // 2026-11-20T12:00:00Z
const SCHEDULED_END = Date.UTC(2026, 11, 20, 12) / 1000; // a month later: 30 days, 720 hours

const summary = (lines: readonly UpcomingInvoiceLine[]) =>
  lines.map((line) => [line.description, line.amount]);
const lineOf = (lines: readonly UpcomingInvoiceLine[], description: string) =>
  lines.find((line) => line.description === description);

/** Team, cut short by a change back to Pro after `hours` hours, priced at its end. */
const teamCycle = (hours: number, usage: UpcomingInvoiceInput['usage']): UpcomingInvoiceInput => ({
  planId: 'team',
  usageBillingEnabled: true,
  period: { start: START, end: START + hours * HOUR, scheduledEnd: SCHEDULED_END },
  asOf: START + hours * HOUR,
  projects: [{ ref: 'paygco1', name: 'PAYG Co Project 1' }],
  compute: [],
  addons: [],
  usage,
});

describe("a cycle's fraction of a month", () => {
  it('is its length over the length it was scheduled to have, exactly', () => {
    expect(cycleFraction({ start: START, end: START + HOUR, scheduledEnd: SCHEDULED_END })).toEqual(
      Q.rational(1, 720),
    );
    expect(
      cycleFraction({ start: START, end: START + 10 * DAY, scheduledEnd: SCHEDULED_END }),
    ).toEqual(Q.rational(1, 3));
  });

  it('is exactly 1 for a cycle that ran to its scheduled end, or has none on record', () => {
    expect(cycleFraction({ start: START, end: SCHEDULED_END })).toEqual(Q.ONE);
    expect(
      cycleFraction({ start: START, end: SCHEDULED_END, scheduledEnd: SCHEDULED_END }),
    ).toEqual(Q.ONE);
  });

  it('refuses a scheduled end before the end, or not in whole seconds', () => {
    const input = teamCycle(1, {});
    expect(() =>
      toBillingWindow({ ...input, period: { ...input.period, scheduledEnd: START + 60 } }),
    ).toThrow(RangeError);
    expect(() =>
      toBillingWindow({ ...input, period: { ...input.period, scheduledEnd: SCHEDULED_END + 0.5 } }),
    ).toThrow(RangeError);
  });
});

describe('a cycle cut short by a plan change (product-decisions §15)', () => {
  it('bills a database size as GB-months: one hour of 100 GB is 1/720 of the month, not $11.50', () => {
    const lines = accruedInvoiceLines(teamCycle(1, { DATABASE_SIZE: 100 * GB }));
    // (100 GB − 8 GB) × 12.5¢ = 1,150¢ for a whole month; × 1/720 = 1.597¢ → 2¢.
    const database = lineOf(lines, 'Database Size');
    expect(database?.amount).toBe(2);
    // Stated in GB-months, so that used − included = billed and billed × price = the amount.
    expect(database?.usage_original).toBe(138_888_888.89); // 100 GB / 720, in bytes
    expect(database?.included_quantity).toBe(11_111_111.11); // 8 GB / 720
    expect(database && lineQuantities(database)?.summary).toBe(
      '0.14 GB used · 0.01 GB included · 0.13 GB billed × $0.125 per GB',
    );
    // The same month run whole bills the whole month's overage.
    const whole = accruedInvoiceLines(teamCycle(720, { DATABASE_SIZE: 100 * GB }));
    expect(lineOf(whole, 'Database Size')?.amount).toBe(1150);
  });

  it('scales storage size the same way, and keeps the whole quota of counts (egress, MAU)', () => {
    const usage = {
      STORAGE_SIZE: 300 * GB,
      EGRESS: 300 * GB,
      MONTHLY_ACTIVE_USERS: 110_000,
    };
    // A third of the month: storage (300 − 100 GB) × 2.1¢ × 1/3 = 140¢; egress 50 GB × 9¢ = 450¢ and
    // 10,000 users × 0.325¢ = 3,250¢ as in any cycle: a change never makes included usage billable.
    expect(summary(accruedInvoiceLines(teamCycle(240, usage)))).toEqual([
      ['Team Plan', 59900],
      ['Egress', 450],
      ['Storage Size', 140],
      ['Monthly Active Users', 3250],
    ]);
  });

  it('keeps a size within its quota free however short the cycle', () => {
    const lines = accruedInvoiceLines(teamCycle(1, { DATABASE_SIZE: 8 * GB }));
    expect(lineOf(lines, 'Database Size')).toBeUndefined();
  });

  it('gives compute credits of $10 × the fraction, never a fresh month', () => {
    const medium = (hours: number): UpcomingInvoiceInput['compute'][number] => ({
      projectRef: 'paygco1',
      kind: 'primary',
      metric: 'COMPUTE_HOURS_MD',
      hours,
      running: false,
    });
    // 240 hours of Medium at 8.22¢ = 1,972.8¢ → 1,973¢; credits $10 × 1/3 = 333.3¢ → 333¢.
    const third = accruedInvoiceLines({ ...teamCycle(240, {}), compute: [medium(240)] });
    expect(summary(third)).toEqual([
      ['Team Plan', 59900],
      ['Compute Hours Medium', 1973],
      ['Compute Credits', -333],
    ]);
    expect(lineOf(third, 'Compute Credits')?.quantity).toBeCloseTo(1 / 3, 6);
    // One hour: 8.22¢ → 8¢ of compute, credits 1.39¢ → 1¢.
    const hour = accruedInvoiceLines({ ...teamCycle(1, {}), compute: [medium(1)] });
    expect(lineOf(hour, 'Compute Credits')?.amount).toBe(-1);
    // The whole month: the whole $10.
    const whole = accruedInvoiceLines({ ...teamCycle(720, {}), compute: [medium(720)] });
    expect(lineOf(whole, 'Compute Credits')?.amount).toBe(-1000);
  });

  it('prices add-ons by the hours of the month as scheduled: what the change invoice billed before', () => {
    const domain = {
      projectRef: 'paygco1',
      addon: 'CUSTOM_DOMAIN' as const,
      hours: 240,
      running: true,
    };
    const shortened = accruedInvoiceLines({ ...teamCycle(240, {}), addons: [{ ...domain }] });
    const atTheChange = accruedInvoiceLines({
      ...teamCycle(240, {}),
      period: { start: START, end: SCHEDULED_END },
      addons: [{ ...domain }],
    });
    expect(lineOf(shortened, 'Custom Domain')).toEqual(lineOf(atTheChange, 'Custom Domain'));
    expect(lineOf(shortened, 'Custom Domain')?.amount).toBe(333);
  });

  it('answers the upcoming invoice of a shortened cycle with the same lines, projected or not', () => {
    const input = teamCycle(1, { DATABASE_SIZE: 100 * GB });
    const invoice = computeUpcomingInvoice(input);
    expect(invoice.amount_projected).toBe(invoice.amount_total);
    expect(invoice.amount_total).toBe(59902);
  });
});

describe('late usage of a cycle cut short', () => {
  const terms: ClosedCycleTerms = {
    planId: 'team',
    usageBillingEnabled: true,
    period: { start: START, end: START + HOUR, scheduledEnd: SCHEDULED_END },
    projects: [{ ref: 'paygco1', name: 'PAYG Co Project 1' }],
  };

  it('is priced by the same fraction: the late line and what was billed add up to one close', () => {
    const billed = { compute: [], usage: { DATABASE_SIZE: 50 * GB } };
    const reported = { compute: [], usage: { DATABASE_SIZE: 100 * GB } };
    const late = lateUsageLines(terms, billed, reported);
    // Billed: 42 GB over × 12.5¢ / 720 = 0.729¢ → 1¢ (no line: under a cent is left off, but it
    // counts); all of it: 1.597¢ → 2¢. The late line is the difference.
    const before = cycleUsageLines(terms, billed);
    const after = cycleUsageLines(terms, reported);
    expect(summary(after)).toEqual([['Database Size', 2]]);
    expect(summary(before)).toEqual([['Database Size', 1]]);
    expect(summary(late)).toEqual([['Database Size (late usage, Nov 20, 2026 – Nov 20, 2026)', 1]]);
    const line = late[0];
    // The late usage in GB-months: (100 − 50 GB) / 720.
    expect(line?.usage_original).toBe(69_444_444.44);
  });

  it('without a scheduled end on record is priced as a whole month, as before', () => {
    const { scheduledEnd: _, ...period } = terms.period;
    const whole = { ...terms, period };
    expect(
      summary(cycleUsageLines(whole, { compute: [], usage: { DATABASE_SIZE: 100 * GB } })),
    ).toEqual([['Database Size', 1150]]);
  });
});
