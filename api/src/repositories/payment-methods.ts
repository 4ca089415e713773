import type { LastCharge, PaymentMethod, PaymentMethods } from '@meterline/domain';
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
    /** The provider holds a billing address for the card; none when not said. */
    hasAddress?: boolean;
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
      has_address: method.hasAddress ?? false,
      is_default: method.isDefault,
      ...(method.createdAt ? { created_at: method.createdAt } : {}),
    })
    .execute();
}

type MethodRow = {
  id: string;
  is_default: boolean;
  is_backup: boolean;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  has_address: boolean;
  created_at: Date;
};

/** A card as the API shows it; `lastCharge` when the caller read it (the list does). */
export function toPaymentMethod(
  row: MethodRow,
  lastCharge: LastCharge | null = null,
): PaymentMethod {
  return {
    id: row.id,
    is_default: row.is_default,
    is_backup: row.is_backup,
    card: { brand: row.brand, last4: row.last4, exp_month: row.exp_month, exp_year: row.exp_year },
    type: 'card',
    created: Math.floor(row.created_at.getTime() / 1000),
    has_address: row.has_address,
    last_charge: lastCharge,
  };
}

const COLUMNS = [
  'id',
  'is_default',
  'is_backup',
  'brand',
  'last4',
  'exp_month',
  'exp_year',
  'has_address',
  'created_at',
] as const;

/**
 * The organization's cards, oldest first, and which one is the default; each with its last charge
 * as `lastChargeOf` finds it by the provider's id of the card.
 */
export async function listPaymentMethods(
  db: Db,
  organizationId: string,
  lastChargeOf: (providerPaymentMethodId: string) => LastCharge | null = () => null,
): Promise<PaymentMethods> {
  const rows = await db
    .selectFrom('payment_methods')
    .select([...COLUMNS, 'provider_payment_method_id'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const data = rows.map((row) =>
    toPaymentMethod(row, lastChargeOf(row.provider_payment_method_id)),
  );
  return { data, defaultPaymentMethodId: data.find((method) => method.is_default)?.id ?? null };
}

/** One card of the organization; another organization's card is not found. */
export function findPaymentMethod(db: Db, organizationId: string, paymentMethodId: string) {
  return db
    .selectFrom('payment_methods')
    .select([...COLUMNS, 'provider', 'provider_payment_method_id'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', paymentMethodId)
    .executeTakeFirst();
}

/**
 * Serializes changes to an organization's cards (default, add, delete): a row lock on the organization
 * that does not block inserts referencing it.
 */
export async function lockPaymentMethods(db: Db, organizationId: string): Promise<void> {
  await db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', organizationId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
}

/** Makes a card the default; the backup made the default is the backup no more (never both). */
export async function makeDefaultPaymentMethod(
  db: Db,
  organizationId: string,
  paymentMethodId: string,
): Promise<void> {
  await db
    .updateTable('payment_methods')
    .set({ is_default: false })
    .where('organization_id', '=', organizationId)
    .where('is_default', '=', true)
    .where('id', '<>', paymentMethodId)
    .execute();
  await db
    .updateTable('payment_methods')
    .set({ is_default: true, is_backup: false })
    .where('organization_id', '=', organizationId)
    .where('id', '=', paymentMethodId)
    .execute();
}

/** The organization's backup card, if it has one. */
export function getBackupPaymentMethod(db: Db, organizationId: string) {
  return db
    .selectFrom('payment_methods')
    .select(['id', 'provider', 'provider_payment_method_id', 'last4', 'brand'])
    .where('organization_id', '=', organizationId)
    .where('is_backup', '=', true)
    .executeTakeFirst();
}

/**
 * Marks a card as the backup (the earlier backup, if another, is unmarked first: one per organization),
 * or, with null, leaves the organization without one. The caller holds lockPaymentMethods.
 */
export async function markBackupPaymentMethod(
  db: Db,
  organizationId: string,
  paymentMethodId: string | null,
): Promise<void> {
  let unmark = db
    .updateTable('payment_methods')
    .set({ is_backup: false })
    .where('organization_id', '=', organizationId)
    .where('is_backup', '=', true);
  if (paymentMethodId !== null) unmark = unmark.where('id', '<>', paymentMethodId);
  await unmark.execute();
  if (paymentMethodId === null) return;
  await db
    .updateTable('payment_methods')
    .set({ is_backup: true })
    .where('organization_id', '=', organizationId)
    .where('id', '=', paymentMethodId)
    .execute();
}
