import type { Db } from '../db/database.ts';

export function getDefaultPaymentMethod(db: Db, organizationId: string) {
  return db
    .selectFrom('payment_methods')
    .select(['id', 'provider', 'provider_payment_method_id', 'last4', 'brand'])
    .where('organization_id', '=', organizationId)
    .where('is_default', '=', true)
    .executeTakeFirst();
}

export async function insertPaymentMethod(
  db: Db,
  method: {
    id: string;
    organizationId: string;
    provider: string;
    providerPaymentMethodId: string;
    brand: string;
    last4: string;
    expMonth: number;
    expYear: number;
    isDefault: boolean;
    createdAt?: Date;
  },
): Promise<void> {
  if (method.isDefault) {
    await db
      .updateTable('payment_methods')
      .set({ is_default: false })
      .where('organization_id', '=', method.organizationId)
      .where('is_default', '=', true)
      .execute();
  }
  await db
    .insertInto('payment_methods')
    .values({
      id: method.id,
      organization_id: method.organizationId,
      provider: method.provider,
      provider_payment_method_id: method.providerPaymentMethodId,
      brand: method.brand,
      last4: method.last4,
      exp_month: method.expMonth,
      exp_year: method.expYear,
      is_default: method.isDefault,
      ...(method.createdAt ? { created_at: method.createdAt } : {}),
    })
    .execute();
}
