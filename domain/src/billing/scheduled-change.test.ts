import { describe, expect, it } from 'vitest';
import { scheduledChangeInvoice } from './scheduled-change.ts';

const cycle = { start: 1_793_491_200, end: 1_796_083_200 };
const nextCycle = { start: cycle.end, end: cycle.end + 31 * 86_400 };
const at = cycle.start + 12 * 86_400;

describe('scheduledChangeInvoice', () => {
  it('bills the usage so far and the new plan for the next cycle, and gives no time back', () => {
    const invoice = scheduledChangeInvoice({
      to: 'pro',
      cycle,
      nextCycle,
      at,
      usageLines: [
        { description: 'Egress', amount: 450 },
        { description: 'Storage Size', amount: 0 },
      ],
    });
    expect(invoice.lines).toEqual([
      {
        description: 'Egress',
        amount: 450,
        period: { start: cycle.start, end: at },
        kind: 'usage',
      },
      { description: 'Pro plan', amount: 2500, period: nextCycle, kind: 'plan_fee' },
    ]);
    expect(invoice.totalCents).toBe(2950);
  });

  it('to Free: the usage so far only', () => {
    const invoice = scheduledChangeInvoice({ to: 'free', cycle, nextCycle, at, usageLines: [] });
    expect(invoice).toEqual({ lines: [], totalCents: 0 });
  });
});
