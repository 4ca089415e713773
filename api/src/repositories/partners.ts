import type { Db } from '../db/database.ts';

export function findOrganizationByPartnerIdForUser(db: Db, partnerId: string, userId: string) {
  return db
    .selectFrom('organizations')
    .innerJoin('memberships', 'memberships.organization_id', 'organizations.id')
    .select(['organizations.id', 'organizations.slug'])
    .where('organizations.partner_id', '=', partnerId)
    .where('memberships.user_id', '=', userId)
    .executeTakeFirst();
}
