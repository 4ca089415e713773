import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { BILLING_PARTNERS, MANAGED_BY } from '../organization/partners.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { COMPUTE_SIZES, PROJECT_STATUSES } from '../organization/projects.ts';
import { RESTRICTION_STATUSES, VIOLATION_CODES } from '../organization/restriction.ts';
import { unixSecondsSchema } from './common.ts';

export const planRefSchema = z.object({ id: z.enum(PLAN_IDS), name: z.string() });

export const restrictionDataSchema = z.object({
  grace_period_end: z.nullable(unixSecondsSchema),
  violations: z.array(z.enum(VIOLATION_CODES)),
});
export type RestrictionData = z.infer<typeof restrictionDataSchema>;

export const organizationSchema = documented(
  z.object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    billing_email: z.nullable(z.string()),
    additional_billing_emails: z.array(z.string()),
    managed_by: z.enum(MANAGED_BY),
    partner_id: z.nullable(z.string()),
    plan: planRefSchema,
    billing_via_partner: z.boolean(),
    billing_partner: z.nullable(z.enum(BILLING_PARTNERS)),
    usage_billing_enabled: documented(z.boolean(), {
      description: "The subscription's: false means the spend cap is on",
    }),
    restriction_status: z.nullable(z.enum(RESTRICTION_STATUSES)),
    restriction_data: z.nullable(restrictionDataSchema),
    has_oriole_project: z.boolean(),
  }),
  { id: 'Organization' },
);
export type Organization = z.infer<typeof organizationSchema>;

export const organizationSummarySchema = documented(
  z.pick(organizationSchema, { id: true, slug: true, name: true, plan: true, managed_by: true }),
  { id: 'OrganizationSummary' },
);
export type OrganizationSummary = z.infer<typeof organizationSummarySchema>;

export const projectSchema = documented(
  z.object({
    id: z.string(),
    ref: z.string(),
    name: z.string(),
    organization_slug: z.string(),
    status: z.enum(PROJECT_STATUSES),
    compute_size: z.enum(COMPUTE_SIZES),
    inserted_at: unixSecondsSchema,
  }),
  { id: 'Project' },
);
export type Project = z.infer<typeof projectSchema>;

/** Where "Manage" leads for a partner-managed organization. */
export const partnerLinkSchema = documented(z.object({ url: z.string().check(z.minLength(1)) }), {
  id: 'PartnerLink',
});
export type PartnerLink = z.infer<typeof partnerLinkSchema>;
