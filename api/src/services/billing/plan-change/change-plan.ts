import { enqueueBillingEmail } from '../../email/enqueue-email.ts';
import { createHash, randomUUID } from 'node:crypto';
import {
  BILLING_PLANS,
  CHANGE_IN_PROGRESS_MESSAGE,
  cycleClosingMessage,
  formatInvoiceDate,
  membersAtFreeLimitMessage,
  PAYMENT_METHOD_REQUIRED_MESSAGE,
  PENDING_CHANGE_TTL_SECONDS,
  planChangeRefusal,
  planChangeTiming,
  planIdOfTier,
  spendCapRefusal,
  spendCapToggledMessage,
  spendCapToggleOf,
  PRORATION_DATE_MAX_AGE_SECONDS,
  PRORATION_DATE_STALE_MESSAGE,
  usageBillingEnabledForTier,
  type SubscriptionConfirmResponse,
  type SubscriptionPreview,
  type SubscriptionUpdateBody,
  type SubscriptionUpdateResponse,
  type Tier,
} from '@meterline/domain';
import type { Db } from '../../../db/database.ts';
import type { PlanChangesTable } from '../../../db/schema.ts';
import type { Selectable } from 'kysely';
import { HttpError } from '../../../plugins/errors.ts';
import { insertPendingCharge, type ChargeRow } from '../../../repositories/charges.ts';
import {
  findPaymentMethod,
  getDefaultPaymentMethod,
} from '../../../repositories/payment-methods.ts';
import {
  getSubscription,
  lockSubscription,
  type SubscriptionState,
} from '../../../repositories/subscriptions.ts';
import { canonicalJson, profileUpdateOf } from '../../credits/top-up.ts';
import {
  chargeAndSettle,
  resumeCharge,
  type ChargeProgress,
} from '../../payments/charge-progress.ts';
import { refreshCharge } from '../../payments/open-charges.ts';
import type { PaymentDeps } from '../../payments/payment-deps.ts';
import { PAYMENT_METHOD_NOT_FOUND } from '../../payments/payment-methods.ts';
import { settleCharge } from '../../payments/refund-charge.ts';
import { closesAt } from '../close-grace.ts';
import { newId } from '../ids.ts';
import { applyPlanChangeIn } from './apply-plan-change.ts';
import { auditContextJson, recordAudit, type AuditContext } from '../../audit/record-audit.ts';
import { priceChange, pricedAgainst, type FrozenChange } from './price-change.ts';
import { findQuote, saveQuote } from './quotes.ts';
import { quotedOrPricedToggle } from '../spend-cap/quoted-toggle.ts';

export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used for a different subscription change';
export const SUBSCRIPTION_MOVED_MESSAGE =
  'The subscription changed while this change was being prepared. Preview the change again.';
export const CHANGE_EXPIRED_MESSAGE =
  'This plan change expired before its payment was confirmed; nothing was changed. Start the change again.';
export const NO_PENDING_CHANGE_MESSAGE = 'No plan change is waiting for this payment';
export const NO_SCHEDULED_CHANGE_MESSAGE = 'No plan change is scheduled';

type PlanChangeRow = Selectable<PlanChangesTable>;

export interface PlanChangeDeps extends PaymentDeps {
  projectUpdatesDisabled: boolean;
  /** Owners and administrators of the organization who have reached their free project limit. */
  membersAtFreeLimit: (db: Db, organizationId: string) => Promise<string[]>;
  /** BILLING_CLOSE_GRACE_MINUTES: how long after its end the billing job closes a cycle. */
  closeGraceMinutes: number;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * The subscription's cycle has ended and the billing job has not closed it yet (the late-usage grace,
 * decision 005): nothing can be priced against it any more, and the next cycle does not exist yet. A
 * change then is refused with 409 and when to try again (product-decisions §15), never a 5xx.
 */
export function refuseWhileCycleCloses(
  deps: PlanChangeDeps,
  subscription: SubscriptionState,
  now: Date,
): void {
  const end = subscription.current_period_end;
  if (now < end) return;
  const closes = closesAt(end, deps.closeGraceMinutes);
  throw new HttpError(409, cycleClosingMessage(seconds(end), seconds(closes), seconds(now)));
}

export async function spendCapRefusalFor(
  deps: PlanChangeDeps,
  organizationId: string,
  subscription: SubscriptionState,
  capOn: boolean,
): Promise<void> {
  const organization = await deps.db
    .selectFrom('organizations')
    .select(['slug', 'managed_by'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const refusal = spendCapRefusal(
    {
      organization,
      subscription,
      projectUpdatesDisabled: deps.projectUpdatesDisabled,
      // The route admits only members with billing write on subscriptions.
      canUpdateSubscription: true,
    },
    capOn,
  );
  if (refusal) throw new HttpError(refusal.status, refusal.message);
}

async function refusalFor(
  deps: PlanChangeDeps,
  organizationId: string,
  subscription: SubscriptionState,
  tier: Tier,
): Promise<void> {
  const organization = await deps.db
    .selectFrom('organizations')
    .select(['slug', 'managed_by', 'has_oriole_project'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const refusal = planChangeRefusal(
    { organization, subscription, projectUpdatesDisabled: deps.projectUpdatesDisabled },
    tier,
  );
  if (refusal) throw new HttpError(refusal.status, refusal.message);
}

/** POST /billing/subscription/preview: the change priced now; its proration_date fixes the charge. */
export async function previewChange(
  deps: PlanChangeDeps,
  organizationId: string,
  userId: string,
  tier: Tier,
): Promise<SubscriptionPreview> {
  const subscription = await getSubscription(deps.db, organizationId);
  await refusalFor(deps, organizationId, subscription, tier);
  const now = deps.clock.now();
  refuseWhileCycleCloses(deps, subscription, now);
  const priced = await priceChange(deps.db, organizationId, subscription, tier, seconds(now));
  await saveQuote(deps.db, organizationId, userId, priced, now);
  return priced.preview;
}

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

  const existing = await findChange(db, key);
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
      if (members.length > 0) throw new HttpError(409, membersAtFreeLimitMessage(members));
    }
    if (planChangeTiming(subscription.billing_partner, subscription.plan_id, target) !== 'now') {
      // Scheduled for the end of a cycle that has ended: it would take effect in the past.
      refuseWhileCycleCloses(deps, subscription, askedAt);
      return schedule(deps, organizationId, body.tier, input.audit);
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
    throw new HttpError(400, PRORATION_DATE_STALE_MESSAGE);
  }
  // A change at the very start of the cycle would end a cycle of no length (the one an earlier change
  // started this second), and one before the cap's last toggle would be priced against a history that
  // has moved on: preview again.
  if (
    at === seconds(subscription.current_period_start) ||
    at < (await lastToggleAt(db, organizationId, subscription.current_period_start))
  ) {
    throw new HttpError(409, SUBSCRIPTION_MOVED_MESSAGE);
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
    const twin = await findChange(trx, key);
    if (twin) return { twin };
    if (
      !samePricingInputs(locked, subscription) ||
      (await togglesInCycle(trx, organizationId, locked.current_period_start)) !==
        priced.togglesInCycle
    ) {
      throw new HttpError(409, SUBSCRIPTION_MOVED_MESSAGE);
    }
    const pending = await trx
      .selectFrom('plan_changes')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (pending) throw new HttpError(409, CHANGE_IN_PROGRESS_MESSAGE);
    if (target === 'free') {
      // Again under the lock: a member may have reached the limit while the change was priced.
      const members = await deps.membersAtFreeLimit(trx, organizationId);
      if (members.length > 0) throw new HttpError(409, membersAtFreeLimitMessage(members));
    }

    let paymentMethod: { id: string; provider_payment_method_id: string } | null = null;
    if (priced.chargeTodayCents > 0) {
      const id = body.payment_method ?? (await getDefaultPaymentMethod(trx, organizationId))?.id;
      if (!id) throw new HttpError(400, PAYMENT_METHOD_REQUIRED_MESSAGE);
      const method = await findPaymentMethod(trx, organizationId, id);
      if (!method) throw new HttpError(404, PAYMENT_METHOD_NOT_FOUND);
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
    throw new HttpError(409, SUBSCRIPTION_MOVED_MESSAGE);
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

/** The moment of the spend cap's last toggle in the cycle (0 when none). */
async function lastToggleAt(db: Db, organizationId: string, cycleStart: Date): Promise<number> {
  const row = await db
    .selectFrom('spend_cap_toggles')
    .select('at')
    .where('organization_id', '=', organizationId)
    .where('cycle_start', '=', cycleStart)
    .orderBy('at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? seconds(row.at) : 0;
}

/** How often the spend cap was toggled in the cycle: a change priced before a toggle is stale. */
export async function togglesInCycle(
  db: Db,
  organizationId: string,
  cycleStart: Date,
): Promise<number> {
  const rows = await db
    .selectFrom('spend_cap_toggles')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('cycle_start', '=', cycleStart)
    .execute();
  return rows.length;
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

function findChange(db: Db, key: string): Promise<PlanChangeRow | undefined> {
  return db
    .selectFrom('plan_changes')
    .selectAll()
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
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

/** What a change that went through answers: the plan it moved to, or the spend cap's new setting. */
interface ChangeOutcome {
  kind: 'plan' | 'spend_cap';
  to_plan: keyof typeof BILLING_PLANS;
  to_usage_billing_enabled: boolean;
}

function successMessage(outcome: ChangeOutcome): string {
  return outcome.kind === 'spend_cap'
    ? spendCapToggledMessage(!outcome.to_usage_billing_enabled)
    : `Subscription changed to the ${BILLING_PLANS[outcome.to_plan].name} plan`;
}

function applied(outcome: ChangeOutcome): SubscriptionUpdateResponse {
  return {
    status: 'applied',
    pending_payment_intent_secret: null,
    payment_intent_id: null,
    message: successMessage(outcome),
  };
}

async function answer(
  deps: PlanChangeDeps,
  chargeId: string,
  outcome: ChangeOutcome,
  progress: ChargeProgress,
): Promise<SubscriptionUpdateResponse> {
  if (progress.status === 'succeeded') return applied(outcome);
  const charge = await deps.db
    .selectFrom('charges')
    .select('provider_ref')
    .where('id', '=', chargeId)
    .executeTakeFirstOrThrow();
  if (progress.status === 'processing') {
    return {
      status: 'processing',
      pending_payment_intent_secret: null,
      payment_intent_id: charge.provider_ref,
      message: 'The payment is processing: the plan changes as soon as it succeeds.',
    };
  }
  return {
    status: 'requires_action',
    pending_payment_intent_secret: progress.clientSecret,
    payment_intent_id: charge.provider_ref,
    message: 'The card needs authentication: confirm the payment to change the plan.',
  };
}

async function resume(
  deps: PlanChangeDeps,
  change: PlanChangeRow,
  fingerprint: string,
): Promise<SubscriptionUpdateResponse> {
  if (change.request_fingerprint !== fingerprint) throw new HttpError(409, IDEMPOTENCY_KEY_REUSED);
  if (change.status === 'applied') return applied(change);
  const charge = await chargeOf(deps.db, change.id);
  if (change.status === 'expired') throw new HttpError(409, CHANGE_EXPIRED_MESSAGE);
  if (change.status === 'failed') {
    throw new HttpError(
      402,
      charge?.failure_message ?? change.failure_message ?? 'Payment failed.',
    );
  }
  if (!charge) throw new Error(`Plan change ${change.id} has no charge`);
  const progress = await resumeCharge(deps, charge);
  return answer(deps, charge.id, change, progress);
}

function chargeOf(db: Db, planChangeId: string): Promise<ChargeRow | undefined> {
  return db
    .selectFrom('charges')
    .selectAll()
    .where('plan_change_id', '=', planChangeId)
    .executeTakeFirst();
}

/**
 * POST /billing/subscription/confirm: the browser passed 3-D Secure; the provider's record settles the
 * charge (exactly once, whoever comes first: this call or the provider's event), which applies the
 * change. 200 applied (or already), 202 still processing, 402 failed, 409 expired.
 */
export async function confirmChange(
  deps: PlanChangeDeps,
  organizationId: string,
  paymentIntentId: string,
): Promise<{ status: 200 | 202; body: SubscriptionConfirmResponse }> {
  const charge = await deps.db
    .selectFrom('charges')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('purpose', '=', 'plan_change')
    .where('provider_ref', '=', paymentIntentId)
    .executeTakeFirst();
  if (!charge?.plan_change_id) throw new HttpError(404, NO_PENDING_CHANGE_MESSAGE);
  if (charge.status === 'pending' || charge.status === 'requires_action') {
    const state = await deps.gateway.retrievePaymentIntent(paymentIntentId);
    await settleCharge(deps, charge.id, state, deps.clock.now());
  }
  const change = await deps.db
    .selectFrom('plan_changes')
    .selectAll()
    .where('id', '=', charge.plan_change_id)
    .executeTakeFirstOrThrow();
  const settled = await chargeOf(deps.db, change.id);
  switch (change.status) {
    case 'applied':
      return {
        status: 200,
        body: { status: 'applied', message: successMessage(change) },
      };
    case 'pending':
      return {
        status: 202,
        body: {
          status: 'processing',
          message: 'The payment is not confirmed yet: the plan changes as soon as it is.',
        },
      };
    case 'expired':
      throw new HttpError(409, CHANGE_EXPIRED_MESSAGE);
    case 'failed':
      if (settled?.status === 'succeeded')
        throw new HttpError(409, settled.refund_reason ?? CHANGE_EXPIRED_MESSAGE);
      throw new HttpError(
        402,
        settled?.failure_message ?? change.failure_message ?? 'Payment failed.',
      );
  }
}

/** A hosting partner's downgrade: stored for the cycle's end, applied by the billing job when it closes. */
async function schedule(
  deps: PlanChangeDeps,
  organizationId: string,
  tier: Tier,
  audit: AuditContext,
): Promise<SubscriptionUpdateResponse> {
  const target = planIdOfTier(tier);
  const end = await deps.db.transaction().execute(async (trx) => {
    const subscription = await lockSubscription(trx, organizationId);
    await recordAudit(trx, audit, {
      organizationId,
      action: 'plan.change_scheduled',
      target: { type: 'subscription', id: organizationId },
      before: { plan: subscription.plan_id, scheduled_plan: subscription.scheduled_plan_id },
      after: {
        scheduled_plan: target,
        scheduled_at: Math.floor(subscription.current_period_end.getTime() / 1000),
      },
      at: deps.clock.now(),
    });
    await trx
      .updateTable('subscriptions')
      .set({
        scheduled_plan_id: target,
        scheduled_usage_billing_enabled: usageBillingEnabledForTier(tier),
        scheduled_at: subscription.current_period_end,
      })
      .where('organization_id', '=', organizationId)
      .execute();
    const at = subscription.current_period_end;
    await enqueueBillingEmail(
      trx,
      organizationId,
      `${organizationId}:${target}:${at.toISOString()}`,
      {
        kind: 'plan.scheduled',
        toPlan: BILLING_PLANS[target].name,
        at: Math.floor(at.getTime() / 1000),
      },
    );
    return at;
  });
  return {
    status: 'scheduled',
    pending_payment_intent_secret: null,
    payment_intent_id: null,
    message: `The change to the ${BILLING_PLANS[target].name} plan takes effect at the end of the billing cycle, on ${formatInvoiceDate(Math.floor(end.getTime() / 1000))}.`,
  };
}

/** DELETE /billing/subscription/scheduled-change */
export async function cancelScheduledChange(
  db: Db,
  organizationId: string,
  audit: AuditContext,
  at: Date,
): Promise<{ message: string }> {
  await db.transaction().execute(async (trx) => {
    const subscription = await lockSubscription(trx, organizationId);
    const scheduled = subscription.scheduled_plan_id;
    if (!scheduled) throw new HttpError(404, NO_SCHEDULED_CHANGE_MESSAGE);
    await trx
      .updateTable('subscriptions')
      .set({ scheduled_plan_id: null, scheduled_usage_billing_enabled: null, scheduled_at: null })
      .where('organization_id', '=', organizationId)
      .execute();
    await recordAudit(trx, audit, {
      organizationId,
      action: 'plan.scheduled_change_cancelled',
      target: { type: 'subscription', id: organizationId },
      before: { scheduled_plan: scheduled },
      after: { scheduled_plan: null },
      at,
    });
  });
  return { message: 'The scheduled plan change was cancelled' };
}
