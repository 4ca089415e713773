import { describe, expect, it } from 'vitest';
import { groupInvoiceLines, invoiceLineGroupKind } from './invoice-grouping.ts';
import { computeUpcomingInvoice } from './upcoming-invoice.ts';

const DAY = 86_400;

describe('groupInvoiceLines', () => {
  const invoice = computeUpcomingInvoice({
    planId: 'pro',
    usageBillingEnabled: true,
    period: { start: 0, end: 30 * DAY },
    asOf: 15 * DAY,
    projects: [
      { ref: 'a1', name: 'A 1' },
      { ref: 'a2', name: 'A 2' },
    ],
    compute: [
      { projectRef: 'a1', kind: 'primary', metric: 'COMPUTE_HOURS_XS', hours: 360, running: true },
      { projectRef: 'a2', kind: 'primary', metric: 'COMPUTE_HOURS_SM', hours: 360, running: true },
      {
        projectRef: 'a2',
        kind: 'read_replica',
        metric: 'COMPUTE_HOURS_SM',
        hours: 100,
        running: true,
      },
      { projectRef: 'a1', kind: 'branch', hours: 10, running: false },
    ],
    addons: [{ projectRef: 'a1', addon: 'CUSTOM_DOMAIN', hours: 360, running: true }],
    usage: { EGRESS: 300e9 },
  });

  it('groups by the spec text rule, each group with its total', () => {
    const groups = groupInvoiceLines(invoice.lines);
    expect(groups.map((g) => [g.kind, g.lines.map((l) => l.description), g.total])).toEqual([
      ['plan', ['Pro Plan'], 2500],
      [
        'compute',
        ['Compute Hours Micro', 'Compute Hours Small', 'Compute Credits'],
        484 + 742 - 1000,
      ],
      ['replica_compute', ['Replica Compute Hours Small'], 206],
      ['branching', ['Branching Compute Hours'], 13],
      ['line', ['Custom Domain'], 500],
      ['line', ['Egress'], 450],
    ]);
    expect(groups.reduce((total, g) => total + g.total, 0)).toBe(invoice.amount_total);
  });

  it('puts the compute credits with the group that bills compute when there is no primary compute', () => {
    // Both projects paused: only a read replica and a branch ran this cycle.
    const lines = computeUpcomingInvoice({
      planId: 'pro',
      usageBillingEnabled: false,
      period: { start: 0, end: 30 * DAY },
      asOf: 15 * DAY,
      projects: [{ ref: 'a1', name: 'A 1' }],
      compute: [
        {
          projectRef: 'a1',
          kind: 'read_replica',
          metric: 'COMPUTE_HOURS_SM',
          hours: 100,
          running: true,
        },
        { projectRef: 'a1', kind: 'branch', hours: 10, running: false },
      ],
      addons: [],
      usage: {},
    }).lines;
    expect(
      groupInvoiceLines(lines).map((g) => [g.kind, g.lines.map((l) => l.description), g.total]),
    ).toEqual([
      ['plan', ['Pro Plan'], 2500],
      // The credits cover the replica's 206 and the branch's 13.
      ['replica_compute', ['Replica Compute Hours Small', 'Compute Credits'], 206 - 219],
      ['branching', ['Branching Compute Hours'], 13],
    ]);
    const branchOnly = lines.filter((line) => !line.metadata.is_read_replica);
    expect(groupInvoiceLines(branchOnly).map((g) => [g.kind, g.lines.length])).toEqual([
      ['plan', 1],
      ['branching', 2],
    ]);
  });

  it('matches "compute" and "plan" in any case', () => {
    const metadata = { is_branch: false, is_read_replica: false };
    expect(invoiceLineGroupKind({ description: 'COMPUTE thing', metadata })).toBe('compute');
    expect(invoiceLineGroupKind({ description: 'Team plan', metadata })).toBe('plan');
    expect(invoiceLineGroupKind({ description: 'Egress', metadata })).toBe('line');
  });

  it('shows nothing for no lines', () => {
    expect(groupInvoiceLines([])).toEqual([]);
  });
});
