import {
  organizationSchema,
  organizationSummarySchema,
  partnerLinkSchema,
  profileSchema,
  projectSchema,
  type Organization,
  type OrganizationSummary,
  type PartnerLink,
  type Profile,
  type Project,
  type Role,
} from '@meterline/domain';
import { z } from 'zod/mini';
import organizationAcmeFree from './recorded/organization-acme-free.json';
import organizationAcmePro from './recorded/organization-acme-pro.json';
import organizationAwsCo from './recorded/organization-aws-co.json';
import organizationFlyCo from './recorded/organization-fly-co.json';
import organizationLimitsCo from './recorded/organization-limits-co.json';
import organizationPaygCo from './recorded/organization-payg-co.json';
import organizationVercel from './recorded/organization-vercel_icfg_demo123.json';
import organizations from './recorded/organizations.json';
import partnerLinkVercel from './recorded/partner-link-vercel.json';
import profileOwner from './recorded/profile-owner.json';
import profileReadonly from './recorded/profile-readonly.json';
import projectsAcmePro from './recorded/projects-acme-pro.json';

/**
 * Responses recorded from the API with the demo world (owner@example.com and
 * readonly@example.com), parsed by the same schemas the app parses them with.
 */
export const recorded = {
  profile: {
    owner: profileSchema.parse(profileOwner),
    readonly: profileSchema.parse(profileReadonly),
  },
  organizations: z.array(organizationSummarySchema).parse(organizations),
  organization: {
    acmePro: organizationSchema.parse(organizationAcmePro),
    acmeFree: organizationSchema.parse(organizationAcmeFree),
    vercel: organizationSchema.parse(organizationVercel),
    awsCo: organizationSchema.parse(organizationAwsCo),
    flyCo: organizationSchema.parse(organizationFlyCo),
    limitsCo: organizationSchema.parse(organizationLimitsCo),
    paygCo: organizationSchema.parse(organizationPaygCo),
  },
  projects: { acmePro: z.array(projectSchema).parse(projectsAcmePro) },
  partnerLink: { vercel: partnerLinkSchema.parse(partnerLinkVercel) },
} satisfies {
  profile: Record<string, Profile>;
  organizations: OrganizationSummary[];
  organization: Record<string, Organization>;
  projects: Record<string, Project[]>;
  partnerLink: Record<string, PartnerLink>;
};

/** The role a profile holds in an organization, as the sections receive it. */
export function roleIn(profile: Profile, slug: string): Role | null {
  return profile.organizations.find((org) => org.slug === slug)?.role ?? null;
}
