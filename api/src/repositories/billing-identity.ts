import type { Db } from '../db/database.ts';
import { getCustomerProfile, getTaxId } from './customers.ts';

/** Who the invoice is addressed to, as it stands at finalization; later changes do not touch it. */
export async function billingIdentity(db: Db, organizationId: string) {
  const [org, profile, taxId] = await Promise.all([
    db
      .selectFrom('organizations')
      .select(['name', 'billing_email'])
      .where('id', '=', organizationId)
      .executeTakeFirstOrThrow(),
    getCustomerProfile(db, organizationId),
    getTaxId(db, organizationId),
  ]);
  return {
    billingName: profile.billing_name ?? org.name,
    billingEmail: org.billing_email,
    billingAddress: profile.address,
    taxId,
  };
}
