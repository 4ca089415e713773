import type { RefundRequest } from '../payment-gateway.ts';
import { SimulatorRequestError, idFromKey, type SimulatorContext } from './shared.ts';

export async function refund(
  ctx: SimulatorContext,
  request: RefundRequest,
): Promise<{ refundRef: string }> {
  return ctx.db.transaction().execute(async (trx) => {
    const intent = await trx
      .selectFrom('simulator_payment_intents')
      .selectAll()
      .where('id', '=', request.providerRef)
      .forUpdate()
      .executeTakeFirst();
    if (!intent) throw new SimulatorRequestError(404, 'No such payment intent.');
    // The provider answers a repeated key from its record: one refund per key.
    const refundRef = idFromKey('re', request.idempotencyKey);
    const refunded = await trx
      .insertInto('simulator_refunds')
      .values({
        id: refundRef,
        payment_intent_id: intent.id,
        amount_cents: request.amountCents,
        reason: request.reason,
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!refunded) return { refundRef };
    if (intent.status !== 'succeeded') {
      throw new SimulatorRequestError(409, 'Only a succeeded payment can be refunded.');
    }
    if (Number(intent.refunded_cents) + request.amountCents > Number(intent.amount_cents)) {
      throw new SimulatorRequestError(409, 'The refund exceeds what the payment took.');
    }
    await trx
      .updateTable('simulator_payment_intents')
      .set({
        refunded_cents: Number(intent.refunded_cents) + request.amountCents,
        updated_at: ctx.now(),
      })
      .where('id', '=', intent.id)
      .execute();
    return { refundRef };
  });
}
