import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import { BILLING_PARTNERS } from '../organization/partners.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { ADDON_TYPES } from './addons.ts';
import { INVOICE_STATUSES } from './invoices.ts';
import { billingMetricSchema } from './metrics.ts';
import { QUOTA_METRICS } from './quotas.ts';

const centsSchema = documented(z.number().check(z.int()), { description: 'US cents' });
const unixSeconds = documented(z.number().check(z.int()), { description: 'unix seconds' });

export const invoiceLineBreakdownSchema = documented(
  z.object({
    project_ref: z.string(),
    project_name: z.string(),
    usage: z.number(),
    hours: z.nullable(z.number()),
    amount: centsSchema,
  }),
  { id: 'InvoiceLineBreakdown' },
);
export type InvoiceLineBreakdown = z.infer<typeof invoiceLineBreakdownSchema>;

export const upcomingInvoiceLineSchema = documented(
  z.object({
    description: z.string(),
    amount: centsSchema,
    amount_before_discount: centsSchema,
    unit_price_desc: z.string(),
    usage_metric: z.nullable(billingMetricSchema),
    usage_original: documented(z.nullable(z.number()), {
      description: "Usage of the line, in the metric's unit (bytes for sizes, hours for compute)",
    }),
    included_quantity: documented(z.nullable(z.number()), {
      description:
        'Of `usage_original`, what the plan includes, in the same unit: the quota for overage lines, 0 ' +
        'for compute and add-ons (nothing of them is included; compute credits are a line of their ' +
        'own). Null for lines not priced from usage, and on lines finalized before it was kept',
    }),
    metadata: z.object({ is_branch: z.boolean(), is_read_replica: z.boolean() }),
    breakdown: z.array(invoiceLineBreakdownSchema),
    proration: documented(z.boolean(), {
      description: "True for the unused time of the old plan's fee given back by a plan change",
    }),
    quantity: documented(z.number(), {
      description:
        'The billable quantity: how many of the unit `unit_price_desc` prices the line bills (hours, ' +
        'GB, months, MAU beyond the quota). quantity × unit_price rounds half up to `amount`',
    }),
    unit_price: documented(z.number(), {
      description:
        'US cents per unit of `quantity`, exact (1.344 for a Micro hour); quantity × unit_price is the ' +
        'amount before its one rounding. Compute credits count months of credits at minus the ' +
        "month's credits; a line at two prices (phone MFA's first project) is 1 × its amount",
    }),
    usage_based: documented(z.boolean(), {
      description: "Priced from a metric's measured hours or usage (compute, add-ons, overage)",
    }),
  }),
  { id: 'UpcomingInvoiceLine' },
);
export type UpcomingInvoiceLine = z.infer<typeof upcomingInvoiceLineSchema>;

export const invoiceProjectionSchema = documented(
  z.object({
    from: documented(z.iso.datetime(), {
      description:
        'The whole hour the projection is made from (now, rounded up to the hour): reloads within ' +
        'the same hour project the same total',
    }),
    remaining_hours: documented(z.number().check(z.int()).check(z.gte(0)), {
      description:
        "Whole hours from `from` to the cycle's end: what runs now keeps running this long",
    }),
    measured_hours: documented(z.number().check(z.int()).check(z.gte(0)), {
      description:
        'Hours the rate of summed usage (egress, requests...) is measured over: from the start of ' +
        'the cycle to `from`, and never less than a day',
    }),
    usage_hours_left: documented(z.number().check(z.int()).check(z.gte(0)), {
      description:
        'Hours summed usage keeps its rate for: `remaining_hours`, except in the first day of a ' +
        'cycle, which counts as measured whole (the cycle’s hours less `measured_hours`)',
    }),
    lines: documented(z.array(upcomingInvoiceLineSchema), {
      description: "The invoice as projected to the cycle's end; `amount_projected` is their sum",
    }),
  }),
  { id: 'InvoiceProjection' },
);
export type InvoiceProjection = z.infer<typeof invoiceProjectionSchema>;

const pricedInvoiceShape = {
  lines: z.array(upcomingInvoiceLineSchema),
  amount_total: documented(centsSchema, { description: 'Accrued so far in the current cycle' }),
  amount_projected: documented(centsSchema, {
    description: 'Projected to the end of the current cycle',
  }),
  projection: documented(invoiceProjectionSchema, {
    description: 'How `amount_projected` was projected',
  }),
};

export const upcomingInvoiceSchema = documented(
  z.object({
    ...pricedInvoiceShape,
    billing_cycle_start: documented(z.iso.datetime(), {
      description: "The current cycle's start (ISO 8601, UTC)",
    }),
    billing_cycle_end: documented(z.iso.datetime(), {
      description: "The current cycle's end, exclusive (ISO 8601, UTC)",
    }),
    currency: documented(z.literal('usd'), {
      description: 'Every price and amount is in US dollars (cents)',
    }),
    customer_balance: documented(centsSchema, {
      description: "As the subscription's: positive is credit owed to the customer, applied first",
    }),
    subscription_id: z.string(),
  }),
  { id: 'UpcomingInvoice' },
);
export type UpcomingInvoice = z.infer<typeof upcomingInvoiceSchema>;
/** What the engine prices: the lines and both totals; the cycle and the balance come from the subscription. */
export type PricedInvoice = Pick<
  UpcomingInvoice,
  'lines' | 'amount_total' | 'amount_projected' | 'projection'
>;

export const invoiceSchema = documented(
  z.object({
    id: z.string(),
    number: z.string(),
    status: z.enum(INVOICE_STATUSES),
    period_start: unixSeconds,
    period_end: unixSeconds,
    amount_due: centsSchema,
    subtotal: centsSchema,
    total: centsSchema,
    payment_attempted: z.boolean(),
    invoice_pdf: documented(z.string(), { description: 'URL of the rendered PDF' }),
    created_at: unixSeconds,
    subscription: documented(z.string(), {
      description: 'The id of the subscription that issued it',
    }),
  }),
  { id: 'Invoice' },
);
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceListSchema = documented(z.array(invoiceSchema), { id: 'InvoiceList' });

export const addonVariantSchema = documented(
  z.object({
    name: z.string(),
    identifier: z.string(),
    price: documented(z.number().check(z.nonnegative()), {
      description:
        'US cents per `price_interval`, exact: a month of an add-on (1000), an hour of compute (1.344)',
    }),
    price_description: z.string(),
    price_interval: z.enum(['monthly', 'hourly']),
    price_type: documented(z.enum(['fixed', 'usage']), {
      description: 'fixed: a monthly fee prorated by the hour; usage: billed for the hours it runs',
    }),
  }),
  { id: 'AddonVariant' },
);
export type AddonVariant = z.infer<typeof addonVariantSchema>;

export const projectAddonsSchema = z.object({
  name: z.string(),
  ref: z.string(),
  addons: z.array(z.object({ type: z.enum(ADDON_TYPES), variant: addonVariantSchema })),
});
export type ProjectAddons = z.infer<typeof projectAddonsSchema>;

export const subscriptionSchema = documented(
  z.object({
    plan: z.object({ id: z.enum(PLAN_IDS), name: z.string() }),
    usage_billing_enabled: documented(z.boolean(), {
      description: 'False means the spend cap is on',
    }),
    billing_via_partner: z.boolean(),
    billing_partner: z.nullable(z.enum(BILLING_PARTNERS)),
    payment_method_type: z.enum(['card', 'invoice']),
    current_period_start: unixSeconds,
    current_period_end: unixSeconds,
    customer_balance: documented(centsSchema, {
      description: 'Positive is credit owed to the customer',
    }),
    project_addons: z.array(projectAddonsSchema),
    addons: documented(
      z.array(
        z.object({
          type: z.enum(ADDON_TYPES),
          identifier: z.string(),
          name: z.string(),
          quantity: documented(z.number().check(z.int()).check(z.gte(1)), {
            description: 'Projects that have it now',
          }),
          price: documented(centsSchema, { description: 'A month of it across those projects' }),
        }),
      ),
      {
        description:
          "The project add-ons the subscription bills, across the organization's projects",
      },
    ),
    billing_cycle_anchor: documented(unixSeconds, {
      description:
        'Where the monthly cycles are counted from: the start, or the last immediate plan change',
    }),
    next_invoice_at: unixSeconds,
    scheduled_plan_change: documented(
      z.nullable(
        z.object({
          target_plan: z.enum(PLAN_IDS),
          at: unixSeconds,
          usage_billing_enabled: z.boolean(),
        }),
      ),
      {
        description:
          'A downgrade waiting for the end of the cycle (hosting partner); null when none',
      },
    ),
  }),
  { id: 'Subscription' },
);
export type Subscription = z.infer<typeof subscriptionSchema>;

export const billingPlanSchema = documented(
  z.object({
    id: z.enum(PLAN_IDS),
    name: z.string(),
    price: documented(z.nullable(centsSchema), {
      description: 'Monthly price; null when set by contract',
    }),
    is_current: z.boolean(),
    change_type: z.enum(['upgrade', 'downgrade', 'none']),
    effective_at: documented(z.nullable(z.enum(['now', 'end_of_billing_period'])), {
      description: 'When a change to this plan would take effect; null for the current plan',
    }),
  }),
  { id: 'BillingPlan' },
);
export type BillingPlan = z.infer<typeof billingPlanSchema>;

export const plansListSchema = documented(z.object({ plans: z.array(billingPlanSchema) }), {
  id: 'PlansList',
});
export type PlansList = z.infer<typeof plansListSchema>;

export const usageRecordSchema = documented(
  z.object({
    metric: z.enum(QUOTA_METRICS),
    usage: documented(z.number(), { description: "In the metric's unit (bytes for sizes)" }),
    usage_original: documented(z.number(), {
      description: '`usage` before rounding to two decimals; never converted (bytes for sizes)',
    }),
    unlimited: z.boolean(),
    capped: z.boolean(),
    pricing_free_units: z.number(),
    available_in_plan: z.boolean(),
    cost: centsSchema,
    pricing_strategy: documented(z.enum(['UNIT', 'PACKAGE', 'NONE']), {
      description:
        'UNIT: priced per unit (GB, MAU); PACKAGE: per package (per million); NONE: the plan never bills it',
    }),
    unit_price_desc: documented(z.string(), {
      description: 'The overage price, as the invoice line states it',
    }),
    project_allocations: z.array(
      z.object({ ref: z.string(), name: z.string(), usage: z.number() }),
    ),
  }),
  { id: 'UsageRecord' },
);
export type UsageRecord = z.infer<typeof usageRecordSchema>;

export const orgUsageSchema = documented(
  z.object({ usage_billing_enabled: z.boolean(), usages: z.array(usageRecordSchema) }),
  { id: 'OrgUsage' },
);
export type OrgUsage = z.infer<typeof orgUsageSchema>;

export const dailyUsageSchema = documented(
  z.object({
    data: z.array(
      z.object({
        date: z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be YYYY-MM-DD')),
        metric: billingMetricSchema,
        usage: z.number(),
      }),
    ),
  }),
  { id: 'DailyUsage' },
);
export type DailyUsage = z.infer<typeof dailyUsageSchema>;

export const paymentLinkSchema = documented(z.object({ redirectUrl: z.string() }), {
  id: 'PaymentLink',
});
export type PaymentLink = z.infer<typeof paymentLinkSchema>;
