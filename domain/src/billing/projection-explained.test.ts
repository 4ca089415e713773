import { describe, expect, it } from 'vitest';
import { explainProjection } from './projection-explained.ts';
import { projectionBasis } from './projection.ts';
import { computeUpcomingInvoice } from './upcoming-invoice.ts';

const DAY = 86_400;
const start = Date.UTC(2026, 10, 1) / 1000;
const period = { start, end: start + 30 * DAY };
const GB = 1e9;

describe('projectionBasis', () => {
  it('rounds up to the next whole hour of the cycle, within it', () => {
    expect(projectionBasis(period, start - 5)).toBe(start);
    expect(projectionBasis(period, start)).toBe(start);
    expect(projectionBasis(period, start + 1)).toBe(start + 3600);
    expect(projectionBasis(period, start + 3600)).toBe(start + 3600);
    expect(projectionBasis(period, period.end + 9)).toBe(period.end);
  });
});

describe('explainProjection', () => {
  // 10 days and 20 minutes into a Pro cycle: two Small projects running, egress 300 GB so far.
  const invoice = computeUpcomingInvoice({
    planId: 'pro',
    usageBillingEnabled: true,
    period,
    asOf: start + 10 * DAY + 1200,
    projects: [
      { ref: 'a', name: 'A' },
      { ref: 'b', name: 'B' },
    ],
    compute: [
      { projectRef: 'a', kind: 'primary', metric: 'COMPUTE_HOURS_SM', hours: 240, running: true },
      { projectRef: 'b', kind: 'primary', metric: 'COMPUTE_HOURS_SM', hours: 240, running: true },
    ],
    addons: [],
    usage: { EGRESS: 300 * GB },
  });
  const explained = explainProjection(invoice);

  it('projects from the next whole hour: 479 hours remain, the rate is measured over 241', () => {
    expect(invoice.projection.from).toBe('2026-11-11T01:00:00.000Z');
    expect(invoice.projection.remaining_hours).toBe(479);
    expect(invoice.projection.measured_hours).toBe(241);
    expect(explained.summary).toBe(
      "Projected from now: what runs now keeps running at today's size for " +
        'the 479 whole hours left in the cycle, and usage that adds up (egress, invocations, messages) ' +
        'keeps its rate so far, measured over 241 hours. Distinct users, sizes and peaks stay as ' +
        'they are now.',
    );
  });

  it('says how each row of the breakdown gets from so far to projected', () => {
    expect(explained.rows.map((row) => [row.label, row.soFar, row.projected, row.how])).toEqual([
      ['Pro Plan', 2500, 2500, 'Billed for the whole cycle'],
      // 2 × 240 h × $0.0206 = $9.89 so far; 2 × 719 h = $29.62 projected, less $10 of credits.
      [
        'Compute',
        0,
        1962,
        "2 resources running at today's size for 479 more hours, less the compute credits",
      ],
      // 300 GB + 300 × 24 / 241 GB a day for 19.96 days = 896.27 GB; 646.27 GB over 250 × $0.09.
      ['Egress', 450, 5816, '300.00 GB so far + 29.88 GB a day for 19.96 days = 896.27 GB'],
    ]);
    expect(explained.soFar).toBe(invoice.amount_total);
    expect(explained.projected).toBe(invoice.amount_projected);
  });
});
