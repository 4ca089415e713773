import { createHash, randomUUID } from 'node:crypto';
import {
  CHANGE_IN_PROGRESS_MESSAGE,
  membersAtFreeLimitMessage,
  PAYMENT_METHOD_REQUIRED_MESSAGE,
  PENDING_CHANGE_TTL_SECONDS,
  planChangeTiming,
  planIdOfTier,
  spendCapToggleOf,
  PRORATION_DATE_MAX_AGE_SECONDS,
  PRORATION_DATE_STALE_MESSAGE,
  type SubscriptionUpdateBody,
  type SubscriptionUpdateResponse,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { insertPendingCharge } from '../../repositories/charges.ts';
import { findPaymentMethod, getDefaultPaymentMethod } from '../../repositories/payment-methods.ts';
import {
  getSubscription,
  lockSubscription,
  type SubscriptionState,
} from '../../repositories/subscriptions.ts';
import { canonicalJson, profileUpdateOf } from '../credits/top-up.ts';
import { chargeAndSettle } from '../charges/charge-progress.ts';
import { refreshCharge } from '../charges/open-charges.ts';
import { PAYMENT_METHOD_NOT_FOUND } from '../payment-methods/payment-methods.ts';
import { newId } from '../../lib/ids.ts';
import { applyPlanChangeIn } from './apply-plan-change.ts';
import { auditContextJson, type AuditContext } from '../../repositories/record-audit.ts';
import { priceChange, pricedAgainst, type FrozenChange } from './price-change.ts';
import { findQuote } from './quotes.ts';
import { quotedOrPricedToggle } from '../spend-cap/quoted-toggle.ts';
import {
  SUBSCRIPTION_MOVED_MESSAGE,
  refusalFor,
  refuseWhileCycleCloses,
  seconds,
  spendCapRefusalFor,
  type PlanChangeDeps,
  type PlanChangeRow,
} from './change-rules.ts';
import { answer, applied, resume } from './change-answer.ts';
import { scheduleChange } from './schedule-change.ts';
import { findChangeByKey, lastToggleAt, togglesInCycle } from '../../repositories/plan-changes.ts';

export interface ChangePlanInput {
  organizationId: string;
  userId: string;
  /** Who asks, from where: the change and its payment are logged in this name, whenever they settle. */
  audit: AuditContext;
  idempotencyKey: string | undefined;
  body: SubscriptionUpdateBody;
}

/**
 * PUT /billing/subscription (product-decisions §9). Refusals first, on the server's own rules; a hosting
 * partner's downgrade is scheduled for the cycle's end; anything else is priced at the preview's
 * proration date (at most 10 minutes old) and frozen in a pending change with its charge, under the
 * subscription's lock, so two concurrent changes cannot both start. Nothing due: applied at once, in
 * that transaction. Otherwise the card is charged under the change's key, and the change is applied in
 * the transaction that records the payment as succeeded, by whoever settles it first (this request, the
 * confirm call, the provider's event, the billing job). A repeat of the Idempotency-Key answers (or
 * finishes) the first attempt and charges nothing more.
 */
export async function changePlan(
  deps: PlanChangeDeps,
  input: ChangePlanInput,
): Promise<SubscriptionUpdateResponse> {
  const { db, clock } = deps;
  const { organizationId, body } = input;
  const key = `plan_change:${organizationId}:${input.idempotencyKey ?? randomUUID()}`;
  const fingerprint = createHash('sha256').update(canonicalJson(body)).digest('hex');

  const existing = await findChangeByKey(db, key);
  if (existing) return resume(deps, existing, fingerprint);

  const subscription = await getSubscription(db, organizationId);
  const target = planIdOfTier(body.tier);
  const askedAt = clock.now();
  const now = seconds(askedAt);
  // Pro to Pro with the other setting is the spend cap's toggle (§10), refused by its own rules.
  const toggle = spendCapToggleOf(subscription, body.tier);
  if (toggle) {
    await spendCapRefusalFor(deps, organizationId, subscription, toggle.capOn);
    refuseWhileCycleCloses(deps, subscription, askedAt);
  } else {
    await refusalFor(deps, organizationId, subscription, body.tier);
    if (target === 'free') {
      const members = await deps.membersAtFreeLimit(db, organizationId);
      if (members.length > 0) throw new Failure('conflict', membersAtFreeLimitMessage(members));
    }
    if (planChangeTiming(subscription.billing_partner, subscription.plan_id, target) !== 'now') {
      // Scheduled for the end of a cycle that has ended: it would take effect in the past.
      refuseWhileCycleCloses(deps, subscription, askedAt);
      return scheduleChange(deps, organizationId, body.tier, input.audit);
    }
    // A preview priced inside the cycle (its proration date before the end, at most 10 minutes old)
    // is honoured after the end as before it; anything else waits for the close.
    if (!quotedInsideCycle(body.proration_date, subscription, now)) {
      refuseWhileCycleCloses(deps, subscription, askedAt);
    }
  }

  // A toggle sent back with its preview's proration date is charged what that preview showed (the
  // toggle itself is recorded when applied: the close bills usage in between, once); without one,
  // it is priced now.
  const at = body.proration_date ?? now;
  if (
    at > now ||
    now - at > PRORATION_DATE_MAX_AGE_SECONDS ||
    at < seconds(subscription.current_period_start) ||
    at >= seconds(subscription.current_period_end)
  ) {
    throw new Failure('invalid', PRORATION_DATE_STALE_MESSAGE);
  }
  // A change at the very start of the cycle would end a cycle of no length (the one an earlier change
  // started this second), and one before the cap's last toggle would be priced against a history that
  // has moved on: preview again.
  if (
    at === seconds(subscription.current_period_start) ||
    at < (await lastToggleAt(db, organizationId, subscription.current_period_start))
  ) {
    throw new Failure('conflict', SUBSCRIPTION_MOVED_MESSAGE);
  }

  // Billing details sent with the change are checked now by the profile's own rules (400 naming the
  // field), frozen with it, and saved when it is applied (so they are on the invoice it issues): a
  // declined or abandoned change writes none of them (product-decisions §15).
  const profileUpdate = await profileUpdateOf(db, organizationId, body);
  await settleExpiredChange(deps, organizationId);
  const priced: FrozenChange = toggle
    ? await quotedOrPricedToggle(
        db,
        organizationId,
        input.userId,
        subscription,
        body,
        toggle.capOn,
        at,
      )
    : await quotedOrPriced(deps, organizationId, input.userId, subscription, body, at);

  const claimed = await db.transaction().execute(async (trx) => {
    const locked = await lockSubscription(trx, organizationId);
    const twin = await findChangeByKey(trx, key);
    if (twin) return { twin };
    if (
      !samePricingInputs(locked, subscription) ||
      (await togglesInCycle(trx, organizationId, locked.current_period_start)) !==
        priced.togglesInCycle
    ) {
      throw new Failure('conflict', SUBSCRIPTION_MOVED_MESSAGE);
    }
    const pending = await trx
      .selectFrom('plan_changes')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (pending) throw new Failure('conflict', CHANGE_IN_PROGRESS_MESSAGE);
    if (target === 'free') {
      // Again under the lock: a member may have reached the limit while the change was priced.
      const members = await deps.membersAtFreeLimit(trx, organizationId);
      if (members.length > 0) throw new Failure('conflict', membersAtFreeLimitMessage(members));
    }

    let paymentMethod: { id: string; provider_payment_method_id: string } | null = null;
    if (priced.chargeTodayCents > 0) {
      const id = body.payment_method ?? (await getDefaultPaymentMethod(trx, organizationId))?.id;
      if (!id) throw new Failure('invalid', PAYMENT_METHOD_REQUIRED_MESSAGE);
      const method = await findPaymentMethod(trx, organizationId, id);
      if (!method) throw new Failure('not_found', PAYMENT_METHOD_NOT_FOUND);
      paymentMethod = method;
    }
    const wallNow = clock.now();
    const change = await insertChange(trx, {
      key,
      fingerprint,
      organizationId,
      userId: input.userId,
      priced,
      paymentMethodId: paymentMethod?.id ?? null,
      profileUpdate,
      wallNow,
      audit: input.audit,
    });
    if (!paymentMethod) {
      await applyPlanChangeIn(trx, change.id, wallNow);
      return { applied: change };
    }
    const charge = await insertPendingCharge(trx, {
      id: newId('ch'),
      organizationId,
      invoiceId: null,
      purpose: 'plan_change',
      planChangeId: change.id,
      amountCents: priced.chargeTodayCents,
      paymentMethodId: paymentMethod.id,
      providerPaymentMethodId: paymentMethod.provider_payment_method_id,
      idempotencyKey: key,
      createdBy: input.userId,
      profileUpdate: null,
      at: wallNow,
      attemptedAt: wallNow,
      audit: input.audit,
    });
    if (!charge) throw new Error(`Plan change ${key}: its charge key was taken`);
    return { charge, change };
  });
  if ('twin' in claimed && claimed.twin) return resume(deps, claimed.twin, fingerprint);
  if ('applied' in claimed && claimed.applied) return applied(claimed.applied);
  if (!('charge' in claimed) || !claimed.charge || !claimed.change) throw new Error('unreachable');
  const progress = await chargeAndSettle(deps, claimed.charge);
  return answer(deps, claimed.charge.id, claimed.change, progress);
}

/**
 * What the change is charged: the quote of the preview the customer saw (same tier, same proration
 * date), to the cent, however much usage stamped before that moment arrived since; priced now when no
 * preview showed it. A quote priced against another plan, cycle or balance than the subscription's
 * is stale: the customer previews again.
 */
async function quotedOrPriced(
  deps: PlanChangeDeps,
  organizationId: string,
  userId: string,
  subscription: SubscriptionState,
  body: SubscriptionUpdateBody,
  at: number,
): Promise<FrozenChange> {
  if (body.proration_date === undefined) {
    return priceChange(deps.db, organizationId, subscription, body.tier, at);
  }
  const quote = await findQuote(deps.db, organizationId, userId, body.tier, at);
  if (!quote || quote.kind !== 'plan' || !pricedAgainst(quote, subscription)) {
    throw new Failure('conflict', SUBSCRIPTION_MOVED_MESSAGE);
  }
  return quote;
}

/** A proration date a preview of the current cycle could have answered, and still honoured now. */
function quotedInsideCycle(
  prorationDate: number | undefined,
  subscription: SubscriptionState,
  now: number,
): boolean {
  return (
    prorationDate !== undefined &&
    prorationDate >= seconds(subscription.current_period_start) &&
    prorationDate < seconds(subscription.current_period_end) &&
    prorationDate <= now &&
    now - prorationDate <= PRORATION_DATE_MAX_AGE_SECONDS
  );
}

/**
 * The plan, cycle and balance the change was priced against are still the subscription's. Usage ingested
 * meanwhile is not a reason to refuse: the change records as billed only the rows it read, and applying it
 * marks the ended cycle for the next close to bill what came after (late usage).
 */
function samePricingInputs(locked: SubscriptionState, read: SubscriptionState): boolean {
  return (
    locked.plan_id === read.plan_id &&
    locked.usage_billing_enabled === read.usage_billing_enabled &&
    locked.current_period_start.getTime() === read.current_period_start.getTime() &&
    locked.current_period_end.getTime() === read.current_period_end.getTime() &&
    locked.customer_balance_cents === read.customer_balance_cents
  );
}

async function insertChange(
  trx: Db,
  values: {
    key: string;
    fingerprint: string;
    organizationId: string;
    userId: string;
    priced: FrozenChange;
    paymentMethodId: string | null;
    profileUpdate: unknown;
    wallNow: Date;
    audit: AuditContext;
  },
): Promise<PlanChangeRow> {
  const { priced } = values;
  return trx
    .insertInto('plan_changes')
    .values({
      id: newId('pc'),
      organization_id: values.organizationId,
      idempotency_key: values.key,
      request_fingerprint: values.fingerprint,
      status: 'pending',
      tier: priced.tier,
      from_plan: priced.from.plan,
      from_usage_billing_enabled: priced.from.usageBillingEnabled,
      to_plan: priced.to.plan,
      to_usage_billing_enabled: priced.to.usageBillingEnabled,
      changed_at: new Date(priced.at * 1000),
      cycle_start: priced.cycle.start,
      cycle_end: priced.cycle.end,
      lines: JSON.stringify(priced.recordLines),
      total_cents: priced.totalCents,
      credit_applied_cents: priced.creditAppliedCents,
      charge_today_cents: priced.chargeTodayCents,
      billed_usage: JSON.stringify(priced.billedUsage),
      projects: JSON.stringify(priced.projects),
      payment_method_id: values.paymentMethodId,
      profile_update: values.profileUpdate === null ? null : JSON.stringify(values.profileUpdate),
      billed_via_partner: priced.billedViaPartner,
      kind: priced.kind,
      spend_cap_reading: priced.spendCap ? JSON.stringify(priced.spendCap.reading) : null,
      spend_cap_billed: priced.spendCap ? JSON.stringify(priced.spendCap.billed) : null,
      created_by: values.userId,
      audit_context: auditContextJson(values.audit),
      created_at: values.wallNow,
      expires_at: new Date(values.wallNow.getTime() + PENDING_CHANGE_TTL_SECONDS * 1000),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A pending change past its hour (its 3-D Secure abandoned) is asked of the provider before a new change
 * may start: the challenge is cancelled, or a payment that went through after all applies it.
 */
async function settleExpiredChange(deps: PlanChangeDeps, organizationId: string): Promise<void> {
  const now = deps.clock.now();
  const charge = await deps.db
    .selectFrom('plan_changes')
    .innerJoin('charges', 'charges.plan_change_id', 'plan_changes.id')
    .selectAll('charges')
    .where('plan_changes.organization_id', '=', organizationId)
    .where('plan_changes.status', '=', 'pending')
    .where('plan_changes.expires_at', '<=', now)
    .executeTakeFirst();
  if (charge) await refreshCharge(deps, charge);
}
