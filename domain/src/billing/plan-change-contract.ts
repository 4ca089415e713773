import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { COMPUTE_SIZES, PROJECT_STATUSES } from '../organization/projects.ts';
import { paymentMethodIdSchema } from '../payments/contract.ts';
import { plainTextSchema } from '../schemas/common.ts';
import { ADDON_TYPES } from './addons.ts';
import { tierSchema } from './billing-plans.ts';

const centsSchema = documented(z.number().check(z.int()), { description: 'US cents' });
const unixSeconds = documented(z.number().check(z.int()), { description: 'unix seconds' });

export const PLAN_CHANGE_EFFECTIVE = ['now', 'end_of_billing_period'] as const;
export type PlanChangeEffective = (typeof PLAN_CHANGE_EFFECTIVE)[number];

export const subscriptionPreviewBodySchema = documented(z.strictObject({ tier: tierSchema }), {
  id: 'SubscriptionPreviewRequest',
});
export type SubscriptionPreviewBody = z.infer<typeof subscriptionPreviewBodySchema>;

const addonSchema = z.object({
  type: z.enum(ADDON_TYPES),
  variant: z.object({ name: z.string(), identifier: z.string() }),
});

export const previewLineSchema = documented(
  z.object({
    description: z.string(),
    total_price: centsSchema,
    kind: z.enum(['usage', 'unused_time', 'plan_fee']),
    period_start: unixSeconds,
    period_end: unixSeconds,
    breakdown: z.array(z.object({ project_name: z.string(), project_ref: z.string() })),
  }),
  { id: 'SubscriptionPreviewLine' },
);
export type PreviewLine = z.infer<typeof previewLineSchema>;

export const subscriptionPreviewSchema = documented(
  z.object({
    plan_change_type: z.enum(['upgrade', 'downgrade']),
    target_plan: z.object({ id: z.enum(PLAN_IDS), name: z.string() }),
    tier: tierSchema,
    breakdown: documented(z.array(previewLineSchema), {
      description: "The change invoice's lines",
    }),
    total: documented(centsSchema, {
      description: 'Σ breakdown: the change invoice total (negative adds to the balance)',
    }),
    credit_applied: centsSchema,
    charge_today: centsSchema,
    balance_after: centsSchema,
    credited_to_balance: documented(centsSchema, {
      description:
        'What the change adds to the credit balance: −total when the total is negative (the change ' +
        'invoice is then $0.00 due), else 0',
    }),
    monthly_invoice_estimate: centsSchema,
    proration_date: documented(unixSeconds, {
      description: 'Send it back with the change: it is charged exactly this',
    }),
    effective_at: z.enum(PLAN_CHANGE_EFFECTIVE),
    /** When the change takes effect, unix seconds (the proration date, or the cycle's end). */
    effective_date: unixSeconds,
    billed_via_partner: z.boolean(),
    number_of_projects: z.number().check(z.int()),
    active_projects: z.array(
      z.object({
        ref: z.string(),
        name: z.string(),
        status: z.enum(PROJECT_STATUSES),
        instance_size: z.enum(COMPUTE_SIZES),
      }),
    ),
    addons_to_remove: z.array(
      z.object({ project_ref: z.string(), project_name: z.string(), addons: z.array(addonSchema) }),
    ),
  }),
  { id: 'SubscriptionPreview' },
);
export type SubscriptionPreview = z.infer<typeof subscriptionPreviewSchema>;

const TEXT_MAX = 200;
const TAX_ID_TEXT_MAX = 64;
/** Unix seconds from 2000 to 2100: anything else is no preview of ours. */
const prorationDateSchema = z
  .number({ error: 'proration_date must be unix seconds' })
  .check(z.int('proration_date must be whole unix seconds'))
  .check(z.gte(946_684_800, 'proration_date is out of range'))
  .check(z.lte(4_102_444_800, 'proration_date is out of range'));

export const subscriptionUpdateBodySchema = documented(
  z.strictObject({
    tier: tierSchema,
    payment_method: z.optional(paymentMethodIdSchema),
    proration_date: z.optional(prorationDateSchema),
    address: z.optional(
      z.nullable(
        z.object({
          line1: plainTextSchema('Address line 1', TEXT_MAX),
          line2: z.optional(z.nullable(plainTextSchema('Address line 2', TEXT_MAX))),
          city: plainTextSchema('City', TEXT_MAX),
          state: z.optional(z.nullable(plainTextSchema('State', TEXT_MAX))),
          postal_code: plainTextSchema('Postal code', TEXT_MAX),
          country: plainTextSchema('Country', TEXT_MAX),
        }),
      ),
    ),
    tax_id: z.optional(
      z.nullable(
        z.object({
          type: plainTextSchema('Tax ID type', TAX_ID_TEXT_MAX),
          value: plainTextSchema('Tax ID', TAX_ID_TEXT_MAX),
          country: z.optional(plainTextSchema('Tax ID country', TAX_ID_TEXT_MAX)),
        }),
      ),
    ),
    billing_name: z.optional(z.nullable(plainTextSchema('Name', TEXT_MAX))),
  }),
  { id: 'SubscriptionUpdateRequest' },
);
export type SubscriptionUpdateBody = z.infer<typeof subscriptionUpdateBodySchema>;

export const subscriptionUpdateResponseSchema = documented(
  z.object({
    status: z.enum(['applied', 'scheduled', 'requires_action', 'processing']),
    /** Set when the card must pass 3-D Secure: confirm it, then POST /billing/subscription/confirm. */
    pending_payment_intent_secret: z.nullable(z.string()),
    /** The payment to confirm (its provider id); null when nothing is pending. */
    payment_intent_id: z.nullable(z.string()),
    message: z.string(),
  }),
  { id: 'SubscriptionUpdateResponse' },
);
export type SubscriptionUpdateResponse = z.infer<typeof subscriptionUpdateResponseSchema>;

export const subscriptionConfirmBodySchema = documented(
  z.strictObject({
    payment_intent_id: z
      .string({ error: 'payment_intent_id is required' })
      .check(z.minLength(1, 'payment_intent_id is required'))
      .check(z.maxLength(255, 'payment_intent_id must be at most 255 characters'))
      .check(z.regex(/^[\x21-\x7e]+$/, 'payment_intent_id is not valid')),
  }),
  { id: 'SubscriptionConfirmRequest' },
);
export type SubscriptionConfirmBody = z.infer<typeof subscriptionConfirmBodySchema>;

export const subscriptionConfirmResponseSchema = documented(
  z.object({ message: z.string(), status: z.enum(['applied', 'processing']) }),
  { id: 'SubscriptionConfirmResponse' },
);
export type SubscriptionConfirmResponse = z.infer<typeof subscriptionConfirmResponseSchema>;
