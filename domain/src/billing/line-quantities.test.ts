import { describe, expect, it } from 'vitest';
import { lineQuantities, projectShare } from './line-quantities.ts';
import type { UpcomingInvoiceInput } from './invoice-input.ts';
import { computeUpcomingInvoice } from './upcoming-invoice.ts';

const DAY = 86_400;
const START = 1_767_225_600; // 2026-01-01T00:00:00Z
const period = { start: START, end: START + 31 * DAY };

/** payg-co's story: pro with the spend cap off, usage beyond the quotas, two projects. */
const payg: UpcomingInvoiceInput = {
  planId: 'pro',
  usageBillingEnabled: true,
  period,
  asOf: START + 15 * DAY,
  projects: [
    { ref: 'paygco1', name: 'PAYG Co Project 1' },
    { ref: 'paygco2', name: 'PAYG Co Project 2' },
  ],
  compute: [
    {
      projectRef: 'paygco1',
      kind: 'primary',
      metric: 'COMPUTE_HOURS_XS',
      hours: 360,
      running: true,
    },
  ],
  addons: [{ projectRef: 'paygco1', addon: 'CUSTOM_DOMAIN', hours: 360, running: true }],
  usage: { EGRESS: 309.85e9, MONTHLY_ACTIVE_USERS: 128_832 },
  usageByProject: [
    { projectRef: 'paygco1', metric: 'EGRESS', usage: 200e9 },
    { projectRef: 'paygco2', metric: 'EGRESS', usage: 109.85e9 },
  ],
};

const lines = computeUpcomingInvoice(payg).lines;
const line = (description: string) => {
  const found = lines.find((l) => l.description === description);
  if (!found) throw new Error(`no ${description} line`);
  return found;
};

describe('lineQuantities: a usage line a person can check by hand', () => {
  it('states egress as used, included and billed GB at the price per GB', () => {
    const egress = line('Egress');
    expect(egress).toMatchObject({ amount: 539, quantity: 59.85, unit_price: 9 });
    expect(lineQuantities(egress)).toEqual({
      used: '309.85 GB',
      included: '250 GB',
      billed: '59.85 GB',
      unitPrice: '$0.09 per GB',
      summary: '309.85 GB used · 250 GB included · 59.85 GB billed × $0.09 per GB',
    });
  });

  it('states monthly active users beyond the 100,000 included', () => {
    expect(lineQuantities(line('Monthly Active Users'))?.summary).toBe(
      '128,832 MAU used · 100,000 MAU included · 28,832 MAU billed × $0.00325 per MAU',
    );
    expect(line('Monthly Active Users').amount).toBe(9370);
  });

  it('says compute hours once: every hour used is billed', () => {
    expect(lineQuantities(line('Compute Hours Micro'))?.summary).toBe(
      '360.00 hours × $0.01344 per hour',
    );
  });

  it('counts an add-on in months, with as many decimals as bring back its amount', () => {
    // 360 of 744 hours: 0.483871 of a month at $10.00 is 483.871¢ → $4.84; 0.48 would make $4.80.
    const domain = line('Custom Domain');
    expect(domain.amount).toBe(484);
    expect(lineQuantities(domain)?.summary).toBe(
      '360.00 hours used · 0.484 months billed × $10.00 per month',
    );
  });

  it('has nothing to multiply for the plan fee and the compute credits', () => {
    expect(lineQuantities(line('Pro Plan'))).toBeNull();
    expect(lineQuantities(line('Compute Credits'))).toBeNull();
  });

  it('explains a project row as its usage and its part of the line', () => {
    const egress = line('Egress');
    const [first, second] = egress.breakdown;
    if (!first || !second) throw new Error('two projects expected');
    expect(projectShare(egress, first)).toEqual({ usage: '200 GB', share: '64.5% of $5.39' });
    expect(projectShare(egress, second)).toEqual({ usage: '109.85 GB', share: '35.5% of $5.39' });
    expect(first.amount + second.amount).toBe(539);
  });
});

describe('projectShare of a line one project makes', () => {
  it('gives the usage and no share', () => {
    const micro = line('Compute Hours Micro');
    const [only] = micro.breakdown;
    if (!only) throw new Error('one project expected');
    expect(projectShare(micro, only)).toEqual({ usage: '360.00 hours', share: null });
  });
});
