import type { Db } from '../../db/database.ts';
import type { PaymentEvent } from '../../adapters/payment-event.ts';
import { recordAudit } from '../../repositories/record-audit.ts';
import { CARD_PROVIDER } from '../charges/provider-audit.ts';

type CardUpdated = Extract<PaymentEvent, { type: 'payment_method.updated' }>;
type SetupFailed = Extract<PaymentEvent, { type: 'setup_intent.setup_failed' }>;

/**
 * A saved card the provider updated (the card network's new expiry, a reissued card): its brand, last
 * 4 digits and expiry follow, audited in the provider's name. An event older than the last one applied
 * changes nothing, nor does the same news twice.
 */
export async function updateCardFromProvider(
  trx: Db,
  provider: string,
  event: CardUpdated,
  at: Date,
): Promise<'applied' | 'unknown'> {
  const cards = await trx
    .selectFrom('payment_methods')
    .selectAll()
    .where('provider', '=', provider)
    .where('provider_payment_method_id', '=', event.providerPaymentMethodId)
    .forUpdate()
    .execute();
  if (cards.length === 0) return 'unknown';
  for (const card of cards) {
    if (
      card.provider_updated_at &&
      card.provider_updated_at.getTime() > event.occurredAt.getTime()
    ) {
      continue;
    }
    const after = {
      brand: event.brand,
      last4: event.last4,
      exp_month: event.expMonth,
      exp_year: event.expYear,
    };
    const before = {
      brand: card.brand,
      last4: card.last4,
      exp_month: card.exp_month,
      exp_year: card.exp_year,
    };
    await trx
      .updateTable('payment_methods')
      .set({ ...after, provider_updated_at: event.occurredAt })
      .where('id', '=', card.id)
      .execute();
    if (JSON.stringify(before) === JSON.stringify(after)) continue;
    await recordAudit(trx, CARD_PROVIDER, {
      organizationId: card.organization_id,
      action: 'payment_method.updated',
      target: { type: 'payment_method', id: card.id },
      before,
      after: { id: card.id, ...after },
      at,
    });
  }
  return 'applied';
}

/**
 * A card setup the provider says failed: settled as failed once, with its message. A setup already
 * recorded stays so (a late failure of an earlier try); a failed one may still succeed later (the
 * customer tries another card on the same setup), which records its card as usual.
 */
export async function failSetup(
  trx: Db,
  provider: string,
  event: SetupFailed,
  at: Date,
): Promise<'applied' | 'unknown'> {
  const setup = await trx
    .selectFrom('setup_intents')
    .select(['id', 'status'])
    .where('provider', '=', provider)
    .where('provider_setup_intent_id', '=', event.providerSetupIntentId)
    .forUpdate()
    .executeTakeFirst();
  if (!setup) return 'unknown';
  if (setup.status !== 'created') return 'applied';
  await trx
    .updateTable('setup_intents')
    .set({ status: 'failed', failure_message: event.message, updated_at: at })
    .where('id', '=', setup.id)
    .execute();
  return 'applied';
}
