import {
  PLAN_NAMES,
  type Organization,
  type OrganizationSummary,
  type OrganizationUpdate,
  type Role,
} from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

export interface Membership {
  organizationId: string;
  slug: string;
  role: Role;
}

/** The caller's membership in an organization, or undefined when the organization is not theirs to see. */
export async function findMembership(
  db: Db,
  slug: string,
  userId: string,
): Promise<Membership | undefined> {
  const row = await db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select(['organizations.id', 'organizations.slug', 'memberships.role'])
    .where('organizations.slug', '=', slug)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
  return row && { organizationId: row.id, slug: row.slug, role: row.role };
}

export async function listOrganizationsOfUser(
  db: Db,
  userId: string,
): Promise<(OrganizationSummary & { role: Role })[]> {
  const rows = await db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .innerJoin('subscriptions', 'subscriptions.organization_id', 'organizations.id')
    .select([
      'organizations.id',
      'organizations.slug',
      'organizations.name',
      'organizations.managed_by',
      'subscriptions.plan_id',
      'memberships.role',
    ])
    .where('memberships.user_id', '=', userId)
    .orderBy(sql`lower(organizations.name)`)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    slug: row.slug,
    name: row.name,
    managed_by: row.managed_by,
    plan: { id: row.plan_id, name: PLAN_NAMES[row.plan_id] },
    role: row.role,
  }));
}

/** The organization's name, as its invoices show it. */
export async function organizationName(db: Db, organizationId: string): Promise<string> {
  const row = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return row.name;
}

/** Where the organization's billing emails go. */
export function billingEmails(db: Db, organizationId: string) {
  return db
    .selectFrom('organizations')
    .select(['billing_email', 'additional_billing_emails'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
}

export async function getOrganization(db: Db, organizationId: string): Promise<Organization> {
  const row = await db
    .selectFrom('organizations')
    .innerJoin('subscriptions', 'subscriptions.organization_id', 'organizations.id')
    .select([
      'organizations.id',
      'organizations.slug',
      'organizations.name',
      'organizations.billing_email',
      'organizations.additional_billing_emails',
      'organizations.managed_by',
      'organizations.partner_id',
      'organizations.restriction_status',
      'organizations.restriction_data',
      'organizations.has_oriole_project',
      'subscriptions.plan_id',
      'subscriptions.billing_via_partner',
      'subscriptions.billing_partner',
      'subscriptions.usage_billing_enabled',
    ])
    .where('organizations.id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    billing_email: row.billing_email,
    additional_billing_emails: row.additional_billing_emails,
    managed_by: row.managed_by,
    partner_id: row.partner_id,
    plan: { id: row.plan_id, name: PLAN_NAMES[row.plan_id] },
    billing_via_partner: row.billing_via_partner,
    billing_partner: row.billing_partner,
    usage_billing_enabled: row.usage_billing_enabled,
    restriction_status: row.restriction_status,
    restriction_data: row.restriction_data,
    has_oriole_project: row.has_oriole_project,
  };
}

export async function updateOrganization(
  db: Db,
  organizationId: string,
  update: OrganizationUpdate,
): Promise<void> {
  const values = {
    ...(update.name !== undefined ? { name: update.name } : {}),
    ...(update.billing_email !== undefined ? { billing_email: update.billing_email } : {}),
    ...(update.additional_billing_emails !== undefined
      ? { additional_billing_emails: update.additional_billing_emails }
      : {}),
  };
  if (Object.keys(values).length === 0) return;
  await db.updateTable('organizations').set(values).where('id', '=', organizationId).execute();
}
