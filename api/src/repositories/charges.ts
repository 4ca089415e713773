import type { Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { ChargesTable } from '../db/schema.ts';
import { auditContextJson, type AuditContext } from './record-audit.ts';

export type ChargeRow = Selectable<ChargesTable>;

export interface NewCharge {
  id: string;
  organizationId: string;
  invoiceId: string | null;
  purpose: 'invoice' | 'top_up' | 'plan_change';
  /** The plan change the charge pays for (purpose plan_change). */
  planChangeId?: string;
  amountCents: number;
  paymentMethodId: string | null;
  providerPaymentMethodId: string;
  idempotencyKey: string;
  createdBy: string | null;
  profileUpdate: unknown;
  at: Date;
  /** Wall-clock time of the provider call the writer is about to make (its lease on the charge). */
  attemptedAt: Date;
  /** A backup card's charge: the default card's declined charge it stands in for. */
  backupOfChargeId?: string;
  /** Who started the payment, from where; none: the billing engine. Its outcome is logged in this name. */
  audit?: AuditContext;
}

export function findChargeByKey(db: Db, idempotencyKey: string): Promise<ChargeRow | undefined> {
  return db
    .selectFrom('charges')
    .selectAll()
    .where('idempotency_key', '=', idempotencyKey)
    .executeTakeFirst();
}

/**
 * Writes a pending charge before the provider is called. The idempotency key is unique: a second writer
 * with the same key (a retry, a double submit) waits for the first and then writes nothing; it gets
 * undefined and reads the first one's charge instead.
 */
export async function insertPendingCharge(
  db: Db,
  charge: NewCharge,
): Promise<ChargeRow | undefined> {
  return db
    .insertInto('charges')
    .values({
      id: charge.id,
      organization_id: charge.organizationId,
      invoice_id: charge.invoiceId,
      purpose: charge.purpose,
      plan_change_id: charge.planChangeId ?? null,
      amount_cents: charge.amountCents,
      payment_method_id: charge.paymentMethodId,
      provider_payment_method_id: charge.providerPaymentMethodId,
      idempotency_key: charge.idempotencyKey,
      status: 'pending',
      created_by: charge.createdBy,
      profile_update: charge.profileUpdate === null ? null : JSON.stringify(charge.profileUpdate),
      created_at: charge.at,
      updated_at: charge.at,
      attempted_at: charge.attemptedAt,
      ...(charge.backupOfChargeId ? { backup_of_charge_id: charge.backupOfChargeId } : {}),
      audit_context: auditContextJson(charge.audit),
    })
    .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function lockCharge(db: Db, chargeId: string): Promise<ChargeRow | undefined> {
  return db
    .selectFrom('charges')
    .selectAll()
    .where('id', '=', chargeId)
    .forUpdate()
    .executeTakeFirst();
}

/** The charge a provider event is about: by the intent's id, else by the charge key it carries. */
export async function findChargeForIntent(
  db: Db,
  providerRef: string,
  chargeKey: string | null,
): Promise<ChargeRow | undefined> {
  const byRef = await db
    .selectFrom('charges')
    .selectAll()
    .where('provider_ref', '=', providerRef)
    .executeTakeFirst();
  if (byRef || !chargeKey) return byRef;
  return findChargeByKey(db, chargeKey);
}

/** The invoice's charges still waiting for the customer or the provider, other than `exceptKey`. */
export function openInvoiceCharges(db: Db, invoiceId: string, exceptKey: string) {
  return db
    .selectFrom('charges')
    .selectAll()
    .where('invoice_id', '=', invoiceId)
    .where('status', 'in', ['pending', 'requires_action'])
    .where('idempotency_key', '<>', exceptKey)
    .execute();
}

/**
 * Stores the provider's intent id on a charge before the intent is confirmed (the port calls this between
 * its two steps). A charge already bound to another intent refuses, and the payment is not confirmed.
 */
export async function recordChargeIntent(
  db: Db,
  chargeId: string,
  providerRef: string,
): Promise<void> {
  const recorded = await db
    .updateTable('charges')
    .set({ provider_ref: providerRef })
    .where('id', '=', chargeId)
    .where((eb) => eb.or([eb('provider_ref', 'is', null), eb('provider_ref', '=', providerRef)]))
    .executeTakeFirst();
  if (recorded.numUpdatedRows !== 1n) {
    throw new Error(`Charge ${chargeId} is bound to another payment intent`);
  }
}

export interface CardCharge {
  providerPaymentMethodId: string;
  status: 'succeeded' | 'failed';
  createdAt: Date;
  failureMessage: string | null;
}

/**
 * The organization's latest settled charge of each card (by the provider's id, which every charge
 * carries, whoever made it), leaving out failures whose message says the card was never asked
 * (`notAnsweredByCard`: cancelled, superseded, never reached the provider).
 */
export async function latestCardCharges(
  db: Db,
  organizationId: string,
  notAnsweredByCard: readonly string[],
): Promise<Map<string, CardCharge>> {
  const rows = await db
    .selectFrom('charges')
    .distinctOn('provider_payment_method_id')
    .select(['provider_payment_method_id', 'status', 'created_at', 'failure_message'])
    .where('organization_id', '=', organizationId)
    .where('provider_payment_method_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'succeeded'),
        eb.and([
          eb('status', '=', 'failed'),
          eb.or([
            eb('failure_message', 'is', null),
            eb('failure_message', 'not in', [...notAnsweredByCard]),
          ]),
        ]),
      ]),
    )
    .orderBy('provider_payment_method_id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const charges = new Map<string, CardCharge>();
  for (const row of rows) {
    if (row.provider_payment_method_id === null) continue;
    charges.set(row.provider_payment_method_id, {
      providerPaymentMethodId: row.provider_payment_method_id,
      status: row.status === 'succeeded' ? 'succeeded' : 'failed',
      createdAt: row.created_at,
      failureMessage: row.failure_message,
    });
  }
  return charges;
}
