import { z } from 'zod';
import { BILLING_PARTNERS } from '../organization/partners.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { ADDON_TYPES } from './addons.ts';
import { INVOICE_STATUSES } from './invoices.ts';
import { billingMetricSchema } from './metrics.ts';
import { QUOTA_METRICS } from './quotas.ts';

const centsSchema = z.number().int().describe('US cents');
const unixSeconds = z.number().int().describe('unix seconds');

export const invoiceLineBreakdownSchema = z
  .object({
    project_ref: z.string(),
    project_name: z.string(),
    usage: z.number(),
    hours: z.number().nullable(),
    amount: centsSchema,
  })
  .meta({ id: 'InvoiceLineBreakdown' });
export type InvoiceLineBreakdown = z.infer<typeof invoiceLineBreakdownSchema>;

export const upcomingInvoiceLineSchema = z
  .object({
    description: z.string(),
    amount: centsSchema,
    amount_before_discount: centsSchema,
    unit_price_desc: z.string(),
    usage_metric: billingMetricSchema.nullable(),
    usage_original: z.number().nullable().describe("Usage of the line, in the metric's unit"),
    metadata: z.object({ is_branch: z.boolean(), is_read_replica: z.boolean() }),
    breakdown: z.array(invoiceLineBreakdownSchema),
  })
  .meta({ id: 'UpcomingInvoiceLine' });
export type UpcomingInvoiceLine = z.infer<typeof upcomingInvoiceLineSchema>;

export const upcomingInvoiceSchema = z
  .object({
    lines: z.array(upcomingInvoiceLineSchema),
    amount_total: centsSchema.describe('Accrued so far in the current cycle'),
    amount_projected: centsSchema.describe('Projected to the end of the current cycle'),
  })
  .meta({ id: 'UpcomingInvoice' });
export type UpcomingInvoice = z.infer<typeof upcomingInvoiceSchema>;

export const invoiceSchema = z
  .object({
    id: z.string(),
    number: z.string(),
    status: z.enum(INVOICE_STATUSES),
    period_start: unixSeconds,
    period_end: unixSeconds,
    amount_due: centsSchema,
    subtotal: centsSchema,
    total: centsSchema,
    payment_attempted: z.boolean(),
    invoice_pdf: z.string().describe('URL of the rendered PDF'),
    created_at: unixSeconds,
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof invoiceSchema>;

export const invoiceListSchema = z.array(invoiceSchema).meta({ id: 'InvoiceList' });

export const projectAddonsSchema = z.object({
  name: z.string(),
  ref: z.string(),
  addons: z.array(
    z.object({
      type: z.enum(ADDON_TYPES),
      variant: z.object({ name: z.string(), identifier: z.string() }),
    }),
  ),
});
export type ProjectAddons = z.infer<typeof projectAddonsSchema>;

export const subscriptionSchema = z
  .object({
    plan: z.object({ id: z.enum(PLAN_IDS), name: z.string() }),
    usage_billing_enabled: z.boolean().describe('False means the spend cap is on'),
    billing_via_partner: z.boolean(),
    billing_partner: z.enum(BILLING_PARTNERS).nullable(),
    payment_method_type: z.enum(['card', 'invoice']),
    current_period_start: unixSeconds,
    current_period_end: unixSeconds,
    customer_balance: centsSchema.describe('Positive is credit owed to the customer'),
    project_addons: z.array(projectAddonsSchema),
    next_invoice_at: unixSeconds,
    scheduled_plan_change: z
      .object({
        target_plan: z.enum(PLAN_IDS),
        at: unixSeconds,
        usage_billing_enabled: z.boolean(),
      })
      .nullable()
      .describe('A downgrade waiting for the end of the cycle (hosting partner); null when none'),
  })
  .meta({ id: 'Subscription' });
export type Subscription = z.infer<typeof subscriptionSchema>;

export const billingPlanSchema = z
  .object({
    id: z.enum(PLAN_IDS),
    name: z.string(),
    price: centsSchema.nullable().describe('Monthly price; null when set by contract'),
    is_current: z.boolean(),
    change_type: z.enum(['upgrade', 'downgrade', 'none']),
    effective_at: z
      .enum(['now', 'end_of_billing_period'])
      .nullable()
      .describe('When a change to this plan would take effect; null for the current plan'),
  })
  .meta({ id: 'BillingPlan' });
export type BillingPlan = z.infer<typeof billingPlanSchema>;

export const plansListSchema = z
  .object({ plans: z.array(billingPlanSchema) })
  .meta({ id: 'PlansList' });
export type PlansList = z.infer<typeof plansListSchema>;

export const usageRecordSchema = z
  .object({
    metric: z.enum(QUOTA_METRICS),
    usage: z.number().describe("In the metric's unit (bytes for sizes)"),
    unlimited: z.boolean(),
    capped: z.boolean(),
    pricing_free_units: z.number(),
    available_in_plan: z.boolean(),
    cost: centsSchema,
    project_allocations: z.array(
      z.object({ ref: z.string(), name: z.string(), usage: z.number() }),
    ),
  })
  .meta({ id: 'UsageRecord' });
export type UsageRecord = z.infer<typeof usageRecordSchema>;

export const orgUsageSchema = z
  .object({ usage_billing_enabled: z.boolean(), usages: z.array(usageRecordSchema) })
  .meta({ id: 'OrgUsage' });
export type OrgUsage = z.infer<typeof orgUsageSchema>;

export const dailyUsageSchema = z
  .object({
    data: z.array(
      z.object({
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Date must be YYYY-MM-DD'),
        metric: billingMetricSchema,
        usage: z.number(),
      }),
    ),
  })
  .meta({ id: 'DailyUsage' });
export type DailyUsage = z.infer<typeof dailyUsageSchema>;

export const paymentLinkSchema = z.object({ redirectUrl: z.string() }).meta({ id: 'PaymentLink' });
export type PaymentLink = z.infer<typeof paymentLinkSchema>;
