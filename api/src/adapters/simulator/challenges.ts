import { randomBytes } from 'node:crypto';
import { AUTHENTICATION_FAILED_MESSAGE } from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import {
  PAYMENT_CANCELED,
  SimulatorRequestError,
  id,
  ok,
  setupSucceeded,
  type SimulatorContext,
  type SimulatorResult,
} from './shared.ts';

/** The challenge screen's two buttons. The first answer settles it; a repeat answers the same. */
export async function resolveChallenge(
  ctx: SimulatorContext,
  challengeId: string,
  outcome: 'complete' | 'fail',
): Promise<SimulatorResult<{ status: 'succeeded'; setup_intent_id?: string }>> {
  return ctx.db.transaction().execute(async (trx) => {
    const challenge = await trx
      .selectFrom('simulator_challenges')
      .selectAll()
      .where('id', '=', challengeId)
      .forUpdate()
      .executeTakeFirst();
    if (!challenge) throw new SimulatorRequestError(404, 'No such authentication challenge.');
    const setupId = challenge.intent_type === 'setup' ? challenge.intent_id : undefined;
    const succeeded = ok({
      status: 'succeeded' as const,
      ...(setupId ? { setup_intent_id: setupId } : {}),
    });
    if (challenge.status === 'completed') return succeeded;
    if (challenge.status === 'failed') {
      return { ok: false, message: AUTHENTICATION_FAILED_MESSAGE, events: [] };
    }
    if (challenge.status === 'canceled') {
      return { ok: false, message: PAYMENT_CANCELED, events: [] };
    }

    const at = ctx.now();
    await trx
      .updateTable('simulator_challenges')
      .set({ status: outcome === 'complete' ? 'completed' : 'failed', resolved_at: at })
      .where('id', '=', challengeId)
      .execute();

    if (challenge.intent_type === 'setup') {
      if (outcome === 'complete') {
        await trx
          .updateTable('simulator_setup_intents')
          .set({ status: 'succeeded', updated_at: at })
          .where('id', '=', challenge.intent_id)
          .where('status', '=', 'requires_action')
          .execute();
        return { ...succeeded, events: [setupSucceeded(challenge.intent_id)] };
      }
      // A failed authentication keeps no card: the setup waits for another one.
      await trx
        .updateTable('simulator_setup_intents')
        .set({
          status: 'requires_payment_method',
          payment_method_id: null,
          last_error: AUTHENTICATION_FAILED_MESSAGE,
          updated_at: at,
        })
        .where('id', '=', challenge.intent_id)
        .execute();
      return { ok: false, message: AUTHENTICATION_FAILED_MESSAGE, events: [] };
    }

    const intent = await trx
      .selectFrom('simulator_payment_intents')
      .select(['id', 'idempotency_key', 'status'])
      .where('id', '=', challenge.intent_id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (intent.status !== 'requires_action') {
      throw new SimulatorRequestError(409, 'This payment no longer needs authentication.');
    }
    if (outcome === 'complete') {
      await trx
        .updateTable('simulator_payment_intents')
        .set({ status: 'succeeded', failure_message: null, updated_at: at })
        .where('id', '=', intent.id)
        .execute();
      return {
        ...succeeded,
        events: [
          {
            id: id('evt'),
            type: 'payment_intent.succeeded',
            providerRef: intent.id,
            chargeKey: intent.idempotency_key,
          },
        ],
      };
    }
    await trx
      .updateTable('simulator_payment_intents')
      .set({ status: 'failed', failure_message: AUTHENTICATION_FAILED_MESSAGE, updated_at: at })
      .where('id', '=', intent.id)
      .execute();
    return {
      ok: false,
      message: AUTHENTICATION_FAILED_MESSAGE,
      events: [
        {
          id: id('evt'),
          type: 'payment_intent.payment_failed',
          providerRef: intent.id,
          chargeKey: intent.idempotency_key,
          message: AUTHENTICATION_FAILED_MESSAGE,
        },
      ],
    };
  });
}

/** The intent's open challenge, created on first sight; one at a time per intent. */
export async function pendingChallenge(
  trx: Db,
  intentType: 'setup' | 'payment',
  intentId: string,
): Promise<{ id: string }> {
  const existing = await trx
    .selectFrom('simulator_challenges')
    .select('id')
    .where('intent_type', '=', intentType)
    .where('intent_id', '=', intentId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (existing) return existing;
  // The id is the only thing that authorizes answering the challenge: unguessable, like a secret.
  const challengeId = `chl_sim_${randomBytes(24).toString('base64url')}`;
  await trx
    .insertInto('simulator_challenges')
    .values({ id: challengeId, intent_type: intentType, intent_id: intentId, status: 'pending' })
    .execute();
  return { id: challengeId };
}

export async function cancelChallenges(trx: Db, intentType: 'setup' | 'payment', intentId: string) {
  await trx
    .updateTable('simulator_challenges')
    .set({ status: 'canceled', resolved_at: sql`now()` })
    .where('intent_type', '=', intentType)
    .where('intent_id', '=', intentId)
    .where('status', '=', 'pending')
    .execute();
}
