import { describe, expect, it } from 'vitest';
import type { UpcomingInvoiceInput } from './invoice-input.ts';
import { upcomingInvoiceSchema, type UpcomingInvoiceLine } from './schemas.ts';
import {
  accruedInvoiceLines,
  computeUpcomingInvoice,
  projectedInvoiceLines,
} from './upcoming-invoice.ts';

const DAY = 86_400;
const START = 1_767_225_600; // 2026-01-01T00:00:00Z
const period = { start: START, end: START + 30 * DAY };
const midCycle = START + 15 * DAY; // 360 of 720 hours

const projects = [
  { ref: 'acmepro1', name: 'Acme Pro Project 1', computeSize: 'micro', running: true },
  { ref: 'acmepro2', name: 'Acme Pro Project 2', computeSize: 'small', running: true },
  { ref: 'acmepro3', name: 'Acme Pro Project 3', computeSize: 'medium', running: true },
] as const;

/** Pro, spend cap on, three projects running since the cycle began, a custom domain on project 1. */
const proOrg: UpcomingInvoiceInput = {
  planId: 'pro',
  usageBillingEnabled: false,
  period,
  asOf: midCycle,
  projects,
  compute: [
    {
      projectRef: 'acmepro1',
      kind: 'primary',
      metric: 'COMPUTE_HOURS_XS',
      hours: 360,
      running: true,
    },
    {
      projectRef: 'acmepro2',
      kind: 'primary',
      metric: 'COMPUTE_HOURS_SM',
      hours: 360,
      running: true,
    },
    {
      projectRef: 'acmepro3',
      kind: 'primary',
      metric: 'COMPUTE_HOURS_MD',
      hours: 360,
      running: true,
    },
  ],
  addons: [{ projectRef: 'acmepro1', addon: 'CUSTOM_DOMAIN', hours: 360, running: true }],
  usage: { EGRESS: 40e9, DATABASE_SIZE: 1e9 },
};

const summary = (lines: UpcomingInvoiceLine[]) => lines.map((l) => [l.description, l.amount]);

describe('computeUpcomingInvoice: a pro org with 3 projects at mid-cycle', () => {
  it('bills what has accrued, by hand', () => {
    const invoice = computeUpcomingInvoice(proOrg);
    // micro 360 h × $0.01344 = 483.84¢ → 484; small 360 × 2.06¢ = 741.6 → 742;
    // medium 360 × 8.22¢ = 2959.2 → 2959; credits cover $10; custom domain 1000¢ × 360/720 = 500.
    expect(summary(invoice.lines)).toEqual([
      ['Pro Plan', 2500],
      ['Compute Hours Micro', 484],
      ['Compute Hours Small', 742],
      ['Compute Hours Medium', 2959],
      ['Compute Credits', -1000],
      ['Custom Domain', 500],
    ]);
    expect(invoice.amount_total).toBe(6185);
    const response = {
      ...invoice,
      billing_cycle_start: '2026-01-01T00:00:00.000Z',
      billing_cycle_end: '2026-02-01T00:00:00.000Z',
      currency: 'usd',
      customer_balance: 0,
      subscription_id: 'sub_1',
    };
    expect(upcomingInvoiceSchema.parse(response)).toEqual(response);
  });

  it('projects to the cycle end, by hand', () => {
    // 720 h: 967.68 → 968, 1483.2 → 1483, 5918.4 → 5918; custom domain the full $10.
    expect(summary(projectedInvoiceLines(proOrg))).toEqual([
      ['Pro Plan', 2500],
      ['Compute Hours Micro', 968],
      ['Compute Hours Small', 1483],
      ['Compute Hours Medium', 5918],
      ['Compute Credits', -1000],
      ['Custom Domain', 1000],
    ]);
    expect(computeUpcomingInvoice(proOrg).amount_projected).toBe(10_869);
  });

  it('describes the lines', () => {
    const [plan, micro, , , credits, domain] = computeUpcomingInvoice(proOrg).lines;
    expect(plan).toMatchObject({
      unit_price_desc: '$25.00 per month',
      usage_metric: null,
      breakdown: [],
    });
    expect(micro).toEqual({
      description: 'Compute Hours Micro',
      amount: 484,
      amount_before_discount: 484,
      unit_price_desc: '$0.01344 per hour',
      usage_metric: 'COMPUTE_HOURS_XS',
      usage_original: 360,
      included_quantity: 0,
      metadata: { is_branch: false, is_read_replica: false },
      proration: false,
      quantity: 360,
      unit_price: 1.344,
      usage_based: true,
      breakdown: [
        {
          project_ref: 'acmepro1',
          project_name: 'Acme Pro Project 1',
          usage: 360,
          hours: 360,
          amount: 484,
        },
      ],
    });
    expect(credits).toMatchObject({ unit_price_desc: '$10.00 per month', breakdown: [] });
    expect(domain).toMatchObject({
      usage_metric: 'CUSTOM_DOMAIN',
      unit_price_desc: '$10.00 per month',
      usage_original: 360,
    });
  });

  it('bills no overage with the spend cap on, however far beyond the quota', () => {
    const capped = { ...proOrg, usage: { EGRESS: 900e9, MONTHLY_ACTIVE_USERS: 500_000 } };
    expect(computeUpcomingInvoice(capped).lines.map((l) => l.description)).not.toContain('Egress');
  });

  it('adds replica and branching lines with their flags', () => {
    const invoice = computeUpcomingInvoice({
      ...proOrg,
      compute: [
        ...proOrg.compute,
        // A small replica started 5 days ago; a branch that ran 10 hours and stopped.
        {
          projectRef: 'acmepro2',
          kind: 'read_replica',
          metric: 'COMPUTE_HOURS_SM',
          hours: 120,
          running: true,
        },
        { projectRef: 'acmepro3', kind: 'branch', hours: 10, running: false },
      ],
    });
    const replica = invoice.lines.find((l) => l.description === 'Replica Compute Hours Small');
    const branch = invoice.lines.find((l) => l.description === 'Branching Compute Hours');
    expect(replica).toMatchObject({
      amount: 247,
      metadata: { is_read_replica: true, is_branch: false },
    }); // 247.2
    expect(branch).toMatchObject({
      amount: 13,
      usage_metric: 'COMPUTE_HOURS_BRANCH',
      metadata: { is_branch: true },
    }); // 13.44
    expect(invoice.amount_total).toBe(6185 + 247 + 13);
    // The replica runs 360 more hours (480 × 2.06 = 988.8 → 989); the stopped branch stays.
    expect(invoice.amount_projected).toBe(10_869 + 989 + 13);
  });

  it('covers a single Micro project entirely with the compute credits', () => {
    const invoice = computeUpcomingInvoice({
      ...proOrg,
      compute: proOrg.compute.slice(0, 1),
      addons: [],
    });
    expect(summary(invoice.lines)).toEqual([
      ['Pro Plan', 2500],
      ['Compute Hours Micro', 484],
      ['Compute Credits', -484],
    ]);
    expect(invoice.amount_projected).toBe(2500);
  });

  it('shows no "$0.00" compute credits while there is no compute to cover', () => {
    // The first minute of a cycle: compute has accrued nothing yet; the projection has compute.
    const start = {
      ...proOrg,
      asOf: START,
      compute: proOrg.compute.map((entry) => ({ ...entry, hours: 0 })),
      addons: [],
    };
    const invoice = computeUpcomingInvoice(start);
    expect(summary(invoice.lines)).toEqual([
      ['Pro Plan', 2500],
      ['Compute Hours Micro', 0],
      ['Compute Hours Small', 0],
      ['Compute Hours Medium', 0],
    ]);
    expect(summary(projectedInvoiceLines(start))).toContainEqual(['Compute Credits', -1000]);
  });

  it('splits a compute line across projects so the breakdown adds up to the line', () => {
    const invoice = computeUpcomingInvoice({
      ...proOrg,
      compute: [
        {
          projectRef: 'acmepro1',
          kind: 'primary',
          metric: 'COMPUTE_HOURS_XS',
          hours: 100.5,
          running: false,
        },
        {
          projectRef: 'acmepro2',
          kind: 'primary',
          metric: 'COMPUTE_HOURS_XS',
          hours: 100.5,
          running: false,
        },
        {
          projectRef: 'acmepro3',
          kind: 'primary',
          metric: 'COMPUTE_HOURS_XS',
          hours: 100.5,
          running: false,
        },
      ],
    });
    const micro = invoice.lines.find((l) => l.usage_metric === 'COMPUTE_HOURS_XS');
    // 301.5 h × 1.344¢ = 405.216 → 405, split 135 each (each share is 135.072).
    expect(micro?.amount).toBe(405);
    expect(micro?.breakdown.map((b) => b.amount)).toEqual([135, 135, 135]);
  });
});

describe('computeUpcomingInvoice: a pay-as-you-go org beyond its quota', () => {
  const payg: UpcomingInvoiceInput = {
    planId: 'pro',
    usageBillingEnabled: true,
    period,
    asOf: midCycle,
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
    addons: [],
    usage: {
      EGRESS: 300e9,
      DATABASE_SIZE: 10e9,
      MONTHLY_ACTIVE_USERS: 120_000,
      FUNCTION_INVOCATIONS: 1_000_000,
    },
    usageByProject: [
      { projectRef: 'paygco1', metric: 'EGRESS', usage: 200e9 },
      { projectRef: 'paygco2', metric: 'EGRESS', usage: 100e9 },
    ],
  };

  it('bills overage so far, by hand', () => {
    const invoice = computeUpcomingInvoice(payg);
    // egress 50 GB × 9¢ = 450; database 2 GB × 12.5¢ = 25; MAU 20,000 × 0.325¢ = 6500;
    // function invocations are within their 2 million.
    expect(summary(invoice.lines)).toEqual([
      ['Pro Plan', 2500],
      ['Compute Hours Micro', 484],
      ['Compute Credits', -484],
      ['Egress', 450],
      ['Database Size', 25],
      ['Monthly Active Users', 6500],
    ]);
    expect(invoice.amount_total).toBe(9475);
    const egress = invoice.lines.find((l) => l.usage_metric === 'EGRESS');
    expect(egress).toMatchObject({
      unit_price_desc: '$0.09 per GB',
      usage_original: 300e9,
      included_quantity: 250e9,
      quantity: 50,
      unit_price: 9,
    });
    expect(egress?.breakdown).toEqual([
      {
        project_ref: 'paygco1',
        project_name: 'PAYG Co Project 1',
        usage: 200e9,
        hours: null,
        amount: 300,
      },
      {
        project_ref: 'paygco2',
        project_name: 'PAYG Co Project 2',
        usage: 100e9,
        hours: null,
        amount: 150,
      },
    ]);
  });

  it('states each line as a quantity at a unit price that makes its amount', () => {
    const lines = computeUpcomingInvoice(payg).lines;
    expect(
      lines.map((l) => [l.description, l.quantity, l.unit_price, l.usage_based, l.proration]),
    ).toEqual([
      ['Pro Plan', 1, 2500, false, false],
      ['Compute Hours Micro', 360, 1.344, true, false],
      // The compute billed ($4.84) is less than the month's credits: 0.484 of a month at −$10.00.
      ['Compute Credits', 0.484, -1000, false, false],
      ['Egress', 50, 9, true, false],
      ['Database Size', 2, 12.5, true, false],
      ['Monthly Active Users', 20_000, 0.325, true, false],
    ]);
    for (const line of [...lines, ...computeUpcomingInvoice(proOrg).lines]) {
      expect(Math.abs(line.quantity * line.unit_price - line.amount)).toBeLessThanOrEqual(0.5);
    }
    // A custom domain half the cycle: half a month at $10.00.
    const domain = computeUpcomingInvoice(proOrg).lines.find(
      (l) => l.description === 'Custom Domain',
    );
    expect(domain).toMatchObject({ quantity: 0.5, unit_price: 1000, amount: 500 });
  });

  it('extrapolates summed usage and keeps averages and distinct counts', () => {
    // egress doubles to 600 GB: 350 × 9 = 3150; database and MAU stay; invocations reach 2 million.
    expect(summary(projectedInvoiceLines(payg))).toEqual([
      ['Pro Plan', 2500],
      ['Compute Hours Micro', 968],
      ['Compute Credits', -968],
      ['Egress', 3150],
      ['Database Size', 25],
      ['Monthly Active Users', 6500],
    ]);
    expect(computeUpcomingInvoice(payg).amount_projected).toBe(12_175);
  });

  it('rounds the exact overage half up, once, and shows no line for an overage that rounds to $0.00', () => {
    // 0.04 GB × 12.5¢ = 0.5¢ → 1; 1 MAU × 0.325¢ → 0: billed, but a "$0.00" line would bill nothing.
    const lines = accruedInvoiceLines({
      ...payg,
      usage: { DATABASE_SIZE: 8.04e9, MONTHLY_ACTIVE_USERS: 100_001 },
    });
    expect(summary(lines).slice(3)).toEqual([['Database Size', 1]]);
    // Two users over cost 0.65¢, which rounds to a cent.
    const two = accruedInvoiceLines({ ...payg, usage: { MONTHLY_ACTIVE_USERS: 100_002 } });
    expect(summary(two).slice(3)).toEqual([['Monthly Active Users', 1]]);
  });

  it('bills uncapped disk usage even with the spend cap on, per project quota', () => {
    // 2 projects × 8 GB × 720 h = 11,520 GB-hours included; 1,000 more × 0.0171¢ = 17.1 → 17.
    const lines = accruedInvoiceLines({
      ...payg,
      usageBillingEnabled: false,
      usage: { DISK_SIZE_GB_HOURS_GP3: 12_520 },
    });
    expect(summary(lines).slice(3)).toEqual([['Disk Size GP3', 17]]);
  });
});

describe('computeUpcomingInvoice: other plans', () => {
  it('bills free-plan projects no compute and no overage', () => {
    const invoice = computeUpcomingInvoice({
      ...proOrg,
      planId: 'free',
      addons: [],
      usage: { EGRESS: 50e9 },
    });
    expect(summary(invoice.lines)).toEqual([['Free Plan', 0]]);
    expect(invoice.amount_projected).toBe(0);
  });

  it('always bills team overage', () => {
    const invoice = computeUpcomingInvoice({
      ...proOrg,
      planId: 'team',
      addons: [],
      usage: { EGRESS: 260e9 },
    });
    expect(summary(invoice.lines)).toContainEqual(['Team Plan', 59_900]);
    expect(summary(invoice.lines)).toContainEqual(['Egress', 90]);
  });

  it('takes enterprise terms from the contract', () => {
    const lines = accruedInvoiceLines({ ...proOrg, planId: 'enterprise', compute: [], addons: [] });
    expect(lines[0]).toMatchObject({
      description: 'Enterprise Plan',
      amount: 0,
      unit_price_desc: 'Custom (by contract)',
    });
    const contracted = accruedInvoiceLines({
      ...proOrg,
      planId: 'enterprise',
      addons: [],
      contract: { monthlyPriceCents: 250_000, computeCreditsCents: 5000 },
    });
    expect(summary(contracted)).toContainEqual(['Enterprise Plan', 250_000]);
    expect(summary(contracted)).toContainEqual(['Compute Credits', -4185]);
  });

  it('charges phone MFA at the first-project price once, then the further price', () => {
    const lines = accruedInvoiceLines({
      ...proOrg,
      asOf: period.end,
      addons: [
        { projectRef: 'acmepro2', addon: 'AUTH_MFA_PHONE', hours: 720, running: true },
        { projectRef: 'acmepro1', addon: 'AUTH_MFA_PHONE', hours: 720, running: true },
        { projectRef: 'acmepro3', addon: 'AUTH_MFA_WEB_AUTHN', hours: 720, running: true },
      ],
    });
    const phone = lines.find((l) => l.usage_metric === 'AUTH_MFA_PHONE');
    expect(phone?.amount).toBe(8500);
    expect(phone?.breakdown.map((b) => [b.project_ref, b.amount])).toEqual([
      ['acmepro1', 7500],
      ['acmepro2', 1000],
    ]);
    expect(lines.find((l) => l.usage_metric === 'AUTH_MFA_WEB_AUTHN')).toMatchObject({
      amount: 0,
      unit_price_desc: 'Included',
    });
  });

  it('refuses impossible input', () => {
    expect(() => computeUpcomingInvoice({ ...proOrg, period: { start: 10, end: 10 } })).toThrow(
      RangeError,
    );
    expect(() =>
      computeUpcomingInvoice({
        ...proOrg,
        addons: [{ projectRef: 'x', addon: 'IPV4', hours: -1, running: false }],
      }),
    ).toThrow(RangeError);
  });
});

describe('projection early in the cycle', () => {
  it('measures the rate of summed usage over at least the first day', () => {
    const early: UpcomingInvoiceInput = {
      planId: 'team',
      usageBillingEnabled: true,
      period,
      asOf: START + 3600,
      projects: [],
      compute: [],
      addons: [],
      usage: { EGRESS: 251e9 },
    };
    // An hour in, 251 GB projects as 251 GB × 30 days / 1 day = 7,530 GB: 7,280 GB over × 9¢.
    expect(computeUpcomingInvoice(early).amount_projected).toBe(59_900 + 65_520);
    expect(computeUpcomingInvoice({ ...early, asOf: START }).amount_projected).toBe(
      59_900 + 65_520,
    );
  });
});
