import { describe, expect, it } from 'vitest';
import { groupInvoiceLines } from './invoice-grouping.ts';
import {
  cycleUsageLines,
  lateUsageLines,
  withLateUsage,
  type ClosedCycleTerms,
  type CycleUsage,
} from './late-usage.ts';

const NOV_1 = Date.UTC(2026, 10, 1) / 1000;
const DEC_1 = Date.UTC(2026, 11, 1) / 1000;
const GB = 1e9;

const payg: ClosedCycleTerms = {
  planId: 'pro',
  usageBillingEnabled: true,
  period: { start: NOV_1, end: DEC_1 },
  projects: [
    { ref: 'paygco1', name: 'PAYG Co Project 1' },
    { ref: 'paygco2', name: 'PAYG Co Project 2' },
  ],
};

const micro = (hours: number): CycleUsage['compute'][number] => ({
  projectRef: 'paygco1',
  kind: 'primary',
  metric: 'COMPUTE_HOURS_XS',
  hours,
  running: false,
});

const summary = (lines: { description: string; amount: number }[]) =>
  lines.map((line) => [line.description, line.amount]);

describe('lateUsageLines', () => {
  it('bills late egress beyond the quota the close left, named after its period', () => {
    // 200 GB at the close: within the 250 GB quota, nothing billed. 100 GB more arrive late:
    // 50 GB are beyond the quota, 50 × 9¢.
    const billed: CycleUsage = { compute: [], usage: { EGRESS: 200 * GB } };
    const reported: CycleUsage = { compute: [], usage: { EGRESS: 300 * GB } };
    const late = lateUsageLines(payg, billed, reported);
    expect(summary(late)).toEqual([['Egress (late usage, Nov 01, 2026 – Dec 01, 2026)', 450]]);
    expect(late[0]).toMatchObject({
      usage_metric: 'EGRESS',
      usage_original: 100 * GB,
      unit_price_desc: '$0.09 per GB',
      breakdown: [],
    });
  });

  it('bills only the difference once the close had billed overage already', () => {
    // 260 GB billed 10 × 9¢ = 90; 300 GB would have billed 450: 360 more.
    const late = lateUsageLines(
      payg,
      { compute: [], usage: { EGRESS: 260 * GB } },
      { compute: [], usage: { EGRESS: 300 * GB } },
    );
    expect(summary(late)).toEqual([['Egress (late usage, Nov 01, 2026 – Dec 01, 2026)', 360]]);
  });

  it('covers late compute with what is left of the compute credits', () => {
    // 300 h of Micro: 403.2 → 403, all covered. 900 h: 1209.6 → 1210, $10 covered.
    const late = lateUsageLines(
      payg,
      { compute: [micro(300)], usage: {} },
      { compute: [micro(900)], usage: {} },
    );
    expect(summary(late)).toEqual([
      ['Compute Hours Micro (late usage, Nov 01, 2026 – Dec 01, 2026)', 807],
      ['Compute Credits (late usage, Nov 01, 2026 – Dec 01, 2026)', -597],
    ]);
    expect(late[0]?.usage_original).toBe(600);
    expect(late[1]?.usage_original).toBeNull();
    // On the screen both join the compute group.
    expect(groupInvoiceLines(late).map((group) => [group.kind, group.total])).toEqual([
      ['compute', 210],
    ]);
  });

  it('bills nothing for the same usage again, for usage the spend cap limits, or on free', () => {
    const reported: CycleUsage = { compute: [micro(900)], usage: { EGRESS: 300 * GB } };
    expect(lateUsageLines(payg, reported, reported)).toEqual([]);
    const capped = { ...payg, usageBillingEnabled: false };
    expect(
      lateUsageLines(capped, { compute: [], usage: { EGRESS: 200 * GB } }, reported).map(
        (line) => line.usage_metric,
      ),
    ).toEqual(['COMPUTE_HOURS_XS', null]);
    const free = { ...payg, planId: 'free' as const, usageBillingEnabled: false };
    expect(lateUsageLines(free, { compute: [], usage: {} }, reported)).toEqual([]);
  });

  it('prices per-project quotas with the projects of the closed cycle', () => {
    // Disk: 8 GB-hours per project-hour; 2 projects × 720 h × 8 = 11,520 included.
    const billed: CycleUsage = { compute: [], usage: { DISK_SIZE_GB_HOURS_GP3: 11_000 } };
    const reported: CycleUsage = { compute: [], usage: { DISK_SIZE_GB_HOURS_GP3: 12_520 } };
    // 1,000 GB-hours beyond × 0.0171¢ = 17.1 → 17.
    expect(summary(lateUsageLines(payg, billed, reported))).toEqual([
      ['Disk Size GP3 (late usage, Nov 01, 2026 – Dec 01, 2026)', 17],
    ]);
    const oneProject = { ...payg, projects: payg.projects.slice(0, 1) };
    // One project: 5,760 included, all of the billed 11,000 was beyond; 1,520 more × 0.0171¢ = 26.
    expect(summary(lateUsageLines(oneProject, billed, reported))).toEqual([
      ['Disk Size GP3 (late usage, Nov 01, 2026 – Dec 01, 2026)', 26],
    ]);
  });

  it('adds up with what was billed to what one close would have billed', () => {
    const billed: CycleUsage = {
      compute: [micro(300)],
      usage: { EGRESS: 240 * GB, MONTHLY_ACTIVE_USERS: 100_001 },
    };
    const reported: CycleUsage = {
      compute: [micro(700)],
      usage: { EGRESS: 251 * GB, MONTHLY_ACTIVE_USERS: 100_400 },
    };
    const total = (lines: { amount: number }[]) =>
      lines.reduce((sum, line) => sum + line.amount, 0);
    expect(
      total(cycleUsageLines(payg, billed)) + total(lateUsageLines(payg, billed, reported)),
    ).toBe(total(cycleUsageLines(payg, reported)));
  });
});

describe('withLateUsage', () => {
  it('adds the late lines to the invoice and to both of its totals', () => {
    const late = lateUsageLines(
      payg,
      { compute: [], usage: { EGRESS: 200 * GB } },
      { compute: [], usage: { EGRESS: 300 * GB } },
    );
    const projection = {
      from: '2026-11-10T00:00:00.000Z',
      remaining_hours: 480,
      measured_hours: 240,
      usage_hours_left: 480,
      lines: [],
    };
    const invoice = { lines: [], amount_total: 2500, amount_projected: 4000, projection };
    expect(withLateUsage(invoice, late)).toEqual({
      lines: late,
      amount_total: 2950,
      amount_projected: 4450,
      projection: { ...projection, lines: late },
    });
    expect(withLateUsage(invoice, [])).toBe(invoice);
  });
});
