import { z } from 'zod';
import { BILLING_PARTNERS, MANAGED_BY } from '../organization/partners.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { COMPUTE_SIZES, PROJECT_STATUSES } from '../organization/projects.ts';
import { RESTRICTION_STATUSES, VIOLATION_CODES } from '../organization/restriction.ts';
import { unixSecondsSchema } from './common.ts';

export const planRefSchema = z.object({ id: z.enum(PLAN_IDS), name: z.string() });

export const restrictionDataSchema = z.object({
  grace_period_end: unixSecondsSchema.nullable(),
  violations: z.array(z.enum(VIOLATION_CODES)),
});
export type RestrictionData = z.infer<typeof restrictionDataSchema>;

export const organizationSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    billing_email: z.string().nullable(),
    additional_billing_emails: z.array(z.string()),
    managed_by: z.enum(MANAGED_BY),
    partner_id: z.string().nullable(),
    plan: planRefSchema,
    billing_via_partner: z.boolean(),
    billing_partner: z.enum(BILLING_PARTNERS).nullable(),
    usage_billing_enabled: z
      .boolean()
      .describe("The subscription's: false means the spend cap is on"),
    restriction_status: z.enum(RESTRICTION_STATUSES).nullable(),
    restriction_data: restrictionDataSchema.nullable(),
    has_oriole_project: z.boolean(),
  })
  .meta({ id: 'Organization' });
export type Organization = z.infer<typeof organizationSchema>;

export const organizationSummarySchema = organizationSchema
  .pick({ id: true, slug: true, name: true, plan: true, managed_by: true })
  .meta({ id: 'OrganizationSummary' });
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>;

export const projectSchema = z
  .object({
    id: z.string(),
    ref: z.string(),
    name: z.string(),
    organization_slug: z.string(),
    status: z.enum(PROJECT_STATUSES),
    compute_size: z.enum(COMPUTE_SIZES),
    inserted_at: unixSecondsSchema,
  })
  .meta({ id: 'Project' });
export type Project = z.infer<typeof projectSchema>;

/** Where "Manage" leads for a partner-managed organization. */
export const partnerLinkSchema = z.object({ url: z.string().min(1) }).meta({ id: 'PartnerLink' });
export type PartnerLink = z.infer<typeof partnerLinkSchema>;
