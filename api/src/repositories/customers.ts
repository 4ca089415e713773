import type { CustomerAddress, CustomerProfile, CustomerUpdate, TaxId } from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

const nonEmpty = (value: string | undefined): string | null => (value ? value : null);

/**
 * The billing name, address and additional recipients (kept on the organization) as they stand: what the
 * Billing Address section shows and what an invoice snapshots at finalization.
 */
export async function getCustomerProfile(db: Db, organizationId: string): Promise<CustomerProfile> {
  const row = await db
    .selectFrom('organizations')
    .leftJoin('billing_customers', 'billing_customers.organization_id', 'organizations.id')
    .innerJoin('subscriptions', 'subscriptions.organization_id', 'organizations.id')
    .select([
      'organizations.additional_billing_emails',
      'organizations.billing_email',
      'subscriptions.customer_balance_cents',
      'subscriptions.billing_via_partner',
      'billing_customers.billing_name',
      'billing_customers.address_line1',
      'billing_customers.address_line2',
      'billing_customers.city',
      'billing_customers.state',
      'billing_customers.postal_code',
      'billing_customers.country',
    ])
    .where('organizations.id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const { address_line1: line1, city, postal_code, country } = row;
  const address: CustomerAddress | null =
    line1 && city && postal_code && country
      ? {
          line1,
          ...(row.address_line2 ? { line2: row.address_line2 } : {}),
          city,
          ...(row.state ? { state: row.state } : {}),
          postal_code,
          country,
        }
      : null;
  return {
    billing_name: row.billing_name ?? null,
    address,
    additional_emails: row.additional_billing_emails,
    email: row.billing_email,
    balance: row.customer_balance_cents,
    billing_via_partner: row.billing_via_partner,
  };
}

/** Replaces the billing name and address; an empty address clears every address column. */
export async function saveCustomer(
  db: Db,
  organizationId: string,
  update: CustomerUpdate,
): Promise<void> {
  const address = update.address;
  const values = {
    billing_name: update.billing_name,
    address_line1: address?.line1 ?? null,
    address_line2: nonEmpty(address?.line2),
    city: address?.city ?? null,
    state: nonEmpty(address?.state),
    postal_code: address?.postal_code ?? null,
    country: address?.country ?? null,
  };
  await db
    .insertInto('billing_customers')
    .values({ organization_id: organizationId, ...values })
    .onConflict((conflict) =>
      conflict.column('organization_id').doUpdateSet({ ...values, updated_at: sql`now()` }),
    )
    .execute();
}

export async function getTaxId(db: Db, organizationId: string): Promise<TaxId | null> {
  const row = await db
    .selectFrom('tax_ids')
    .select(['type', 'value', 'country'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row ?? null;
}

/** An organization has at most one tax ID: setting one replaces the one before. */
export async function saveTaxId(db: Db, organizationId: string, taxId: TaxId): Promise<void> {
  const values = { type: taxId.type, value: taxId.value, country: taxId.country };
  await db
    .insertInto('tax_ids')
    .values({ organization_id: organizationId, ...values })
    .onConflict((conflict) =>
      conflict.column('organization_id').doUpdateSet({ ...values, created_at: sql`now()` }),
    )
    .execute();
}

export async function deleteTaxId(db: Db, organizationId: string): Promise<void> {
  await db.deleteFrom('tax_ids').where('organization_id', '=', organizationId).execute();
}
