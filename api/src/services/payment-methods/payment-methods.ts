import { randomUUID } from 'node:crypto';
import {
  CAPTCHA_FAILED_MESSAGE,
  DEFAULT_CARD_DELETE_MESSAGE,
  canDeletePaymentMethod,
  type PaymentMethod,
} from '@meterline/domain';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import {
  findPaymentMethod,
  getDefaultPaymentMethod,
  insertPaymentMethod,
  lockPaymentMethods,
  makeDefaultPaymentMethod,
  toPaymentMethod,
} from '../../repositories/payment-methods.ts';
import {
  auditContextJson,
  cardOf,
  recordAudit,
  storedAuditContext,
  type AuditContext,
} from '../../repositories/record-audit.ts';
import { newId } from '../../lib/ids.ts';
import type { Captcha } from '../../adapters/captcha/captcha.ts';
import type { PaymentGateway, SetupIntentState } from '../../adapters/payment-gateway.ts';

export const PAYMENT_METHOD_NOT_FOUND = 'Payment method not found';
export const SETUP_INTENT_NOT_FOUND = 'Setup intent not found';
export const SETUP_NOT_SUCCEEDED = 'The card setup has not succeeded: confirm the card first';

export interface PaymentsDeps {
  db: Db;
  gateway: PaymentGateway;
  clock: Clock;
  captcha: Captcha;
  log?: { warn(object: unknown, message: string): void };
}

/** Starts saving a card: checks the captcha, then asks the provider for a setup intent. */
export async function createSetupIntent(
  deps: PaymentsDeps,
  input: {
    organizationId: string;
    userId: string;
    captchaToken: string;
    remoteIp?: string;
    audit: AuditContext;
  },
): Promise<{ client_secret: string }> {
  const { db, gateway, captcha } = deps;
  const passed = await captcha.verify(input.captchaToken, {
    userId: input.userId,
    remoteIp: input.remoteIp,
  });
  if (!passed) throw new Failure('invalid', CAPTCHA_FAILED_MESSAGE);
  const created = await gateway.createSetupIntent({
    organizationId: input.organizationId,
    idempotencyKey: `setup:${input.organizationId}:${randomUUID()}`,
  });
  await db
    .insertInto('setup_intents')
    .values({
      id: `si_${randomUUID().replaceAll('-', '')}`,
      organization_id: input.organizationId,
      provider: gateway.provider,
      provider_setup_intent_id: created.providerSetupIntentId,
      status: 'created',
      created_by: input.userId,
      // The card is recorded later (attach, or the provider's event): in the name of who started it.
      audit_context: auditContextJson(input.audit),
    })
    .onConflict((conflict) =>
      conflict.columns(['provider', 'provider_setup_intent_id']).doNothing(),
    )
    .execute();
  return { client_secret: created.clientSecret };
}

/**
 * Records the card of a setup the browser confirmed. Only a setup the provider says succeeded yields a
 * card; asking again (a retry, or the provider's event having come first) answers the same card.
 */
export async function attachSetupIntent(
  deps: PaymentsDeps,
  input: { organizationId: string; setupIntentId: string },
): Promise<PaymentMethod> {
  const { db, gateway, clock } = deps;
  const setup = await db
    .selectFrom('setup_intents')
    .selectAll()
    .where('provider', '=', gateway.provider)
    .where('provider_setup_intent_id', '=', input.setupIntentId)
    .where('organization_id', '=', input.organizationId)
    .executeTakeFirst();
  if (!setup) throw new Failure('not_found', SETUP_INTENT_NOT_FOUND);
  if (setup.status === 'recorded') return recordedCard(db, input.organizationId, setup);

  const state = await gateway.retrieveSetupIntent(input.setupIntentId);
  if (state.status !== 'succeeded' || !state.card)
    throw new Failure('conflict', SETUP_NOT_SUCCEEDED);
  const method = await db
    .transaction()
    .execute((trx) => recordSetupCardIn(trx, gateway.provider, state, clock.now()));
  if (!method) throw new Failure('not_found', PAYMENT_METHOD_NOT_FOUND);
  return method;
}

async function recordedCard(
  db: Db,
  organizationId: string,
  setup: { payment_method_id: string | null },
): Promise<PaymentMethod> {
  const method = setup.payment_method_id
    ? await findPaymentMethod(db, organizationId, setup.payment_method_id)
    : undefined;
  // Recorded once and removed since: it is not recorded again.
  if (!method) throw new Failure('not_found', PAYMENT_METHOD_NOT_FOUND);
  return toPaymentMethod(method);
}

/**
 * The one place a card is recorded: inside the caller's transaction, under the setup's row lock, once per
 * setup. The organization's first card becomes its default. Null when the setup is not ours, did not
 * succeed, or its card was recorded and removed since.
 */
export async function recordSetupCardIn(
  trx: Db,
  provider: string,
  state: SetupIntentState,
  at: Date,
): Promise<PaymentMethod | null> {
  const setup = await trx
    .selectFrom('setup_intents')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_setup_intent_id', '=', state.providerSetupIntentId)
    .forUpdate()
    .executeTakeFirst();
  if (!setup) return null;
  if (setup.status === 'recorded') {
    const method = setup.payment_method_id
      ? await findPaymentMethod(trx, setup.organization_id, setup.payment_method_id)
      : undefined;
    return method ? toPaymentMethod(method) : null;
  }
  const card = state.card;
  if (state.status !== 'succeeded' || !card) return null;

  await lockPaymentMethods(trx, setup.organization_id);
  const hasDefault = await trx
    .selectFrom('payment_methods')
    .select('id')
    .where('organization_id', '=', setup.organization_id)
    .where('is_default', '=', true)
    .executeTakeFirst();
  const id = newId('pm');
  await insertPaymentMethod(trx, {
    id,
    organizationId: setup.organization_id,
    provider,
    providerPaymentMethodId: card.providerPaymentMethodId,
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    hasAddress: card.hasAddress,
    isDefault: !hasDefault,
    createdAt: at,
  });
  await trx
    .updateTable('setup_intents')
    .set({ status: 'recorded', payment_method_id: id, updated_at: at })
    .where('id', '=', setup.id)
    .execute();
  const method = await findPaymentMethod(trx, setup.organization_id, id);
  const after = {
    ...cardOf({ id, brand: card.brand, last4: card.last4 }),
    is_default: !hasDefault,
  };
  await recordAudit(trx, storedAuditContext(setup.audit_context), {
    organizationId: setup.organization_id,
    action: 'payment_method.added',
    target: { type: 'payment_method', id },
    after: { ...after, exp_month: card.expMonth, exp_year: card.expYear },
    at,
  });
  return method ? toPaymentMethod(method) : null;
}

export async function setDefaultPaymentMethod(
  deps: Omit<PaymentsDeps, 'captcha'>,
  input: { organizationId: string; paymentMethodId: string; audit: AuditContext },
): Promise<{ defaultPaymentMethodId: string }> {
  return deps.db.transaction().execute(async (trx) => {
    await lockPaymentMethods(trx, input.organizationId);
    const method = await findPaymentMethod(trx, input.organizationId, input.paymentMethodId);
    if (!method) throw new Failure('not_found', PAYMENT_METHOD_NOT_FOUND);
    const before = await getDefaultPaymentMethod(trx, input.organizationId);
    await makeDefaultPaymentMethod(trx, input.organizationId, method.id);
    if (before?.id !== method.id) {
      await recordAudit(trx, input.audit, {
        organizationId: input.organizationId,
        action: 'payment_method.default_set',
        target: { type: 'payment_method', id: method.id },
        before: { default_card: cardOf(before) },
        after: { default_card: cardOf(method) },
        at: deps.clock.now(),
      });
    }
    return { defaultPaymentMethodId: method.id };
  });
}

/** Removes a card (never the default, except the only card of a free plan), then forgets it at the provider. */
export async function deletePaymentMethod(
  deps: Omit<PaymentsDeps, 'captcha'>,
  input: { organizationId: string; paymentMethodId: string; audit: AuditContext },
): Promise<{ deleted: string }> {
  const { db, gateway } = deps;
  const removed = await db.transaction().execute(async (trx) => {
    await lockPaymentMethods(trx, input.organizationId);
    const method = await findPaymentMethod(trx, input.organizationId, input.paymentMethodId);
    if (!method) throw new Failure('not_found', PAYMENT_METHOD_NOT_FOUND);
    const { count } = await trx
      .selectFrom('payment_methods')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('organization_id', '=', input.organizationId)
      .executeTakeFirstOrThrow();
    const subscription = await trx
      .selectFrom('subscriptions')
      .select('plan_id')
      .where('organization_id', '=', input.organizationId)
      .executeTakeFirstOrThrow();
    const allowed = canDeletePaymentMethod(method, {
      planId: subscription.plan_id,
      cardCount: Number(count),
    });
    if (!allowed) throw new Failure('conflict', DEFAULT_CARD_DELETE_MESSAGE);
    await trx.deleteFrom('payment_methods').where('id', '=', method.id).execute();
    await recordAudit(trx, input.audit, {
      organizationId: input.organizationId,
      action: 'payment_method.removed',
      target: { type: 'payment_method', id: method.id },
      before: {
        ...cardOf(method),
        exp_month: method.exp_month,
        exp_year: method.exp_year,
        is_default: method.is_default,
        is_backup: method.is_backup,
      },
      at: deps.clock.now(),
    });
    return method;
  });
  if (removed.provider === gateway.provider) {
    try {
      await gateway.detachPaymentMethod(removed.provider_payment_method_id);
    } catch (error) {
      // Removed from the organization already, so nothing here can charge it; the provider keeps a record.
      deps.log?.warn({ err: error }, 'could not detach a removed card at the provider');
    }
  }
  return { deleted: removed.id };
}
