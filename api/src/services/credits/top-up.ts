import { randomUUID } from 'node:crypto';
import {
  CAPTCHA_FAILED_MESSAGE,
  customerAddressSchema,
  customerUpdateSchema,
  dollarsToCentsExact,
  normalizeTaxId,
  taxIdSchema,
  type TopUpBody,
  type TopUpResponse,
} from '@meterline/domain';
import type { z } from 'zod/mini';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import {
  findChargeByKey,
  insertPendingCharge,
  type ChargeRow,
} from '../../repositories/charges.ts';
import { getCustomerProfile } from '../../repositories/customers.ts';
import { findPaymentMethod } from '../../repositories/payment-methods.ts';
import type { AuditContext } from '../../repositories/record-audit.ts';
import { newId } from '../../lib/ids.ts';
import type { Captcha } from '../../adapters/captcha/captcha.ts';
import { chargeAndSettle, resumeCharge, type ChargeProgress } from '../charges/charge-progress.ts';
import type { PaymentDeps } from '../charges/payment-deps.ts';
import { PAYMENT_METHOD_NOT_FOUND } from '../payment-methods/payment-methods.ts';
import type { ProfileUpdate } from '../payment-methods/profile-update.ts';

export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used for a different top-up';
export const BILLED_VIA_PARTNER =
  'This organization is billed via a partner: credits cannot be applied to its invoices';

export interface TopUpDeps extends PaymentDeps {
  captcha: Captcha;
}

export interface TopUpInput {
  organizationId: string;
  userId: string;
  /** The client's Idempotency-Key; without one, the request is an attempt of its own. */
  idempotencyKey: string | undefined;
  body: TopUpBody;
  remoteIp?: string;
  /** Who tops up, from where: the payment's outcome is logged in this name, whenever it settles. */
  audit: AuditContext;
}

/** The charge key of a top-up: the client's key, scoped to the organization. */
export function topUpChargeKey(organizationId: string, clientKey: string): string {
  return `top_up:${organizationId}:${clientKey}`;
}

/**
 * Buys credit with a saved card. In order: the captcha is checked (outside any transaction), the card is
 * checked and a pending charge is written under the idempotency key (one transaction: a failed check
 * writes nothing); the provider is asked to charge under the same key; the outcome settles the charge,
 * and the move to `succeeded` adds the credit in the same transaction. A repeated key resumes or answers
 * the first attempt, without checking the captcha again, and only when it asks for the same amount, card
 * and billing details (else 409); a crash anywhere in between is finished by the next attempt with the
 * key, or by the billing job's reconciliation, which finds the provider's record by the same key.
 */
export async function topUpCredits(deps: TopUpDeps, input: TopUpInput): Promise<TopUpResponse> {
  const { db, clock } = deps;
  const amountCents = dollarsToCentsExact(input.body.amount);
  const profileUpdate = await profileUpdateOf(db, input.organizationId, input.body);
  const key = topUpChargeKey(input.organizationId, input.idempotencyKey ?? randomUUID());

  const attempt: Attempt = {
    paymentMethodId: input.body.payment_method_id,
    amountCents,
    profileUpdate,
  };
  const existing = await findChargeByKey(db, key);
  if (existing) return resume(deps, existing, attempt);

  // Its invoices come from the partner, so a credit here could never be used: take no money for it.
  const subscription = await db
    .selectFrom('subscriptions')
    .select('billing_via_partner')
    .where('organization_id', '=', input.organizationId)
    .executeTakeFirstOrThrow();
  if (subscription.billing_via_partner) throw new Failure('conflict', BILLED_VIA_PARTNER);

  // The captcha is asked before any transaction opens (hCaptcha is a remote call). A twin of this
  // request (same key, same token) passes it too, and then finds the first one's charge.
  const passed = await deps.captcha.verify(input.body.hcaptcha_token, {
    userId: input.userId,
    remoteIp: input.remoteIp,
    requestKey: key,
  });
  if (!passed) throw new Failure('invalid', CAPTCHA_FAILED_MESSAGE);

  const claimed = await db.transaction().execute(async (trx) => {
    const method = await findPaymentMethod(trx, input.organizationId, input.body.payment_method_id);
    if (!method) throw new Failure('not_found', PAYMENT_METHOD_NOT_FOUND);
    const now = clock.now();
    const charge = await insertPendingCharge(trx, {
      id: newId('ch'),
      organizationId: input.organizationId,
      invoiceId: null,
      purpose: 'top_up',
      amountCents,
      paymentMethodId: input.body.payment_method_id,
      providerPaymentMethodId: method.provider_payment_method_id,
      idempotencyKey: key,
      createdBy: input.userId,
      audit: input.audit,
      profileUpdate,
      at: now,
      attemptedAt: now,
    });
    // A twin with the same key got there first: it owns the provider call.
    return charge ?? null;
  });
  if (!claimed) {
    const twin = await findChargeByKey(db, key);
    if (!twin) throw new Error(`Top-up ${key} vanished`);
    return resume(deps, twin, attempt);
  }
  return toTopUpResponse(await chargeAndSettle(deps, claimed));
}

/** What a top-up request asks for; a repeat of its key must ask for exactly the same. */
interface Attempt {
  paymentMethodId: string;
  amountCents: number;
  profileUpdate: ProfileUpdate | null;
}

async function resume(
  deps: TopUpDeps,
  charge: ChargeRow,
  attempt: Attempt,
): Promise<TopUpResponse> {
  if (
    charge.amount_cents !== attempt.amountCents ||
    charge.payment_method_id !== attempt.paymentMethodId ||
    canonicalJson(charge.profile_update ?? null) !== canonicalJson(attempt.profileUpdate)
  ) {
    throw new Failure('conflict', IDEMPOTENCY_KEY_REUSED);
  }
  return toTopUpResponse(await resumeCharge(deps, charge));
}

function toTopUpResponse(progress: ChargeProgress): TopUpResponse {
  return progress.status === 'requires_action'
    ? { status: 'requires_action', payment_intent_secret: progress.clientSecret }
    : { status: progress.status, payment_intent_secret: null };
}

/** JSON with object keys in order, so a stored profile update compares equal to the same one sent again. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)),
        )
      : item,
  );
}

function firstMessage(error: z.core.$ZodError): string {
  return error.issues[0]?.message ?? 'Invalid billing details';
}

/**
 * The billing details a top-up may carry, checked by the profile's own rules before anything happens.
 * Only what is given changes; an empty address or tax ID is "not given", never "clear it".
 */
export async function profileUpdateOf(
  db: Db,
  organizationId: string,
  body: Pick<TopUpBody, 'address' | 'tax_id' | 'billing_name'>,
): Promise<ProfileUpdate | null> {
  const update: ProfileUpdate = {};
  if (body.billing_name) {
    const name = customerUpdateSchema.shape.billing_name.safeParse(body.billing_name);
    if (!name.success) throw new Failure('invalid', firstMessage(name.error));
    update.billing_name = name.data;
  }
  const address = body.address;
  if (address && Object.values(address).some((value) => value && String(value).trim())) {
    const parsed = customerAddressSchema.safeParse({
      line1: address.line1,
      ...(address.line2 ? { line2: address.line2 } : {}),
      city: address.city,
      ...(address.state ? { state: address.state } : {}),
      postal_code: address.postal_code,
      country: address.country,
    });
    if (!parsed.success) throw new Failure('invalid', firstMessage(parsed.error));
    update.address = parsed.data;
  }
  const taxId = body.tax_id;
  let current: Awaited<ReturnType<typeof getCustomerProfile>> | null = null;
  if (taxId && taxId.type.trim() && taxId.value.trim()) {
    current = await getCustomerProfile(db, organizationId);
    const country = taxId.country ?? update.address?.country ?? current.address?.country;
    const parsed = taxIdSchema.safeParse({ type: taxId.type, value: taxId.value, country });
    if (!parsed.success) throw new Failure('invalid', firstMessage(parsed.error));
    update.tax_id = normalizeTaxId(parsed.data);
  }
  if (update.address && !update.billing_name) {
    current ??= await getCustomerProfile(db, organizationId);
    if (!current.billing_name) {
      throw new Failure('invalid', 'Name must be at least 3 letters long');
    }
  }
  return Object.keys(update).length > 0 ? update : null;
}
