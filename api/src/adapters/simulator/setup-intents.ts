import type { SimulatorSetupConfirmResponse } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import {
  CardError,
  type CardDetails,
  type CreatedSetupIntent,
  type SetupIntentRequest,
  type SetupIntentState,
} from '../payment-gateway.ts';
import { DECLINE_MESSAGES, type TokenizedCard } from './cards.ts';
import {
  SimulatorRequestError,
  idFromKey,
  ok,
  secretFor,
  setupSucceeded,
  type SimulatorContext,
  type SimulatorResult,
} from './shared.ts';
import { pendingChallenge } from './challenges.ts';
import { insertCard } from './saved-cards.ts';

export async function createSetupIntent(
  ctx: SimulatorContext,
  request: SetupIntentRequest,
): Promise<CreatedSetupIntent> {
  const intentId = idFromKey('seti', request.idempotencyKey);
  await ctx.db
    .insertInto('simulator_setup_intents')
    .values({
      id: intentId,
      client_secret: secretFor(intentId),
      status: 'requires_payment_method',
      metadata: JSON.stringify({ organization_id: request.organizationId }),
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  const row = await ctx.db
    .selectFrom('simulator_setup_intents')
    .select(['id', 'client_secret'])
    .where('id', '=', intentId)
    .executeTakeFirstOrThrow();
  return { providerSetupIntentId: row.id, clientSecret: row.client_secret };
}

export async function retrieveSetupIntent(
  ctx: SimulatorContext,
  providerSetupIntentId: string,
): Promise<SetupIntentState> {
  const row = await ctx.db
    .selectFrom('simulator_setup_intents')
    .leftJoin(
      'simulator_payment_methods',
      'simulator_payment_methods.id',
      'simulator_setup_intents.payment_method_id',
    )
    .select([
      'simulator_setup_intents.id',
      'simulator_setup_intents.status',
      'simulator_payment_methods.id as pm_id',
      'simulator_payment_methods.last4',
      'simulator_payment_methods.brand',
      'simulator_payment_methods.exp_month',
      'simulator_payment_methods.exp_year',
    ])
    .where('simulator_setup_intents.id', '=', providerSetupIntentId)
    .executeTakeFirst();
  if (!row) throw new SimulatorRequestError(404, 'No such setup intent.');
  const card =
    row.status === 'succeeded' && row.pm_id && row.last4 && row.brand
      ? {
          providerPaymentMethodId: row.pm_id,
          brand: row.brand,
          last4: row.last4,
          expMonth: row.exp_month ?? 0,
          expYear: row.exp_year ?? 0,
          hasAddress: false,
        }
      : null;
  return { providerSetupIntentId: row.id, status: row.status, card };
}

/** Confirms a setup with the card typed into the simulator's card form. */
export async function confirmSetupIntent(
  ctx: SimulatorContext,
  clientSecret: string,
  card: CardDetails,
): Promise<SimulatorResult<SimulatorSetupConfirmResponse>> {
  return ctx.db.transaction().execute(async (trx) => {
    const intent = await trx
      .selectFrom('simulator_setup_intents')
      .selectAll()
      .where('client_secret', '=', clientSecret)
      .forUpdate()
      .executeTakeFirst();
    if (!intent) throw new SimulatorRequestError(404, 'No such setup intent.');
    // A repeated confirmation (a double submit) answers what the first one did.
    if (intent.status === 'succeeded') {
      return ok({ status: 'succeeded', setup_intent_id: intent.id });
    }
    if (intent.status === 'requires_action') {
      const challenge = await pendingChallenge(trx, 'setup', intent.id);
      return ok({ status: 'requires_action', setup_intent_id: intent.id, challenge });
    }
    if (intent.status === 'canceled') {
      throw new SimulatorRequestError(409, 'This card setup was canceled.');
    }
    let tokenized: TokenizedCard;
    try {
      tokenized = await ctx.tokenize(card, trx);
    } catch (error) {
      if (error instanceof CardError) return await refuseSetup(ctx, trx, intent.id, error.message);
      throw error;
    }
    const { behaviour } = tokenized;
    const asks = behaviour === 'authenticate' || behaviour === 'authenticate_always';
    if (behaviour !== 'succeed' && !asks) {
      return refuseSetup(ctx, trx, intent.id, DECLINE_MESSAGES[behaviour]);
    }
    // The setup saves the card for the organization that started it.
    const method = await insertCard(trx, tokenized, intent.metadata.organization_id ?? null);
    if (asks) {
      await trx
        .updateTable('simulator_setup_intents')
        .set({
          status: 'requires_action',
          payment_method_id: method.id,
          last_error: null,
          updated_at: ctx.now(),
        })
        .where('id', '=', intent.id)
        .execute();
      const challenge = await pendingChallenge(trx, 'setup', intent.id);
      return ok({ status: 'requires_action', setup_intent_id: intent.id, challenge });
    }
    await trx
      .updateTable('simulator_setup_intents')
      .set({
        status: 'succeeded',
        payment_method_id: method.id,
        last_error: null,
        updated_at: ctx.now(),
      })
      .where('id', '=', intent.id)
      .execute();
    return ok({ status: 'succeeded', setup_intent_id: intent.id }, [setupSucceeded(intent.id)]);
  });
}

/** A declined setup saves nothing; the intent waits for another card, as the provider's does. */
export async function refuseSetup(
  ctx: SimulatorContext,
  trx: Db,
  intentId: string,
  message: string,
): Promise<SimulatorResult<never>> {
  await trx
    .updateTable('simulator_setup_intents')
    .set({ last_error: message, updated_at: ctx.now() })
    .where('id', '=', intentId)
    .execute();
  return { ok: false, message, events: [] };
}
