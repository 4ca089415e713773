import type { Db } from '../../db/database.ts';
import { type CardDetails, type ProviderCard } from '../payment-gateway.ts';
import type { TokenizedCard } from './cards.ts';
import {
  NO_SUCH_PAYMENT_METHOD,
  SimulatorRequestError,
  id,
  type SimulatorContext,
} from './shared.ts';

export async function insertCard(db: Db, card: TokenizedCard, customer: string | null) {
  const row = {
    id: id('pm'),
    brand: card.brand,
    last4: card.last4,
    fingerprint: card.fingerprint,
    behaviour: card.behaviour,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    customer,
  };
  await db.insertInto('simulator_payment_methods').values(row).execute();
  return row;
}

/** Tokenizes a card for a one-off payment: it belongs to no customer until attached. */
export async function createCard(ctx: SimulatorContext, card: CardDetails): Promise<ProviderCard> {
  const row = await insertCard(ctx.db, await ctx.tokenize(card), null);
  return {
    providerPaymentMethodId: row.id,
    brand: row.brand,
    last4: row.last4,
    expMonth: row.exp_month,
    expYear: row.exp_year,
    // The simulator's card form asks for number, expiry and CVC only.
    hasAddress: false,
  };
}

/** Saves a tokenized card for an organization, as the provider attaches a payment method to a customer. */
export async function attachPaymentMethod(
  ctx: SimulatorContext,
  providerPaymentMethodId: string,
  organizationId: string,
): Promise<void> {
  const attached = await ctx.db
    .updateTable('simulator_payment_methods')
    .set({ customer: organizationId })
    .where('id', '=', providerPaymentMethodId)
    .where('detached_at', 'is', null)
    .where((eb) => eb.or([eb('customer', 'is', null), eb('customer', '=', organizationId)]))
    .executeTakeFirst();
  if (attached.numUpdatedRows !== 1n) {
    throw new SimulatorRequestError(
      409,
      'This payment method belongs to another customer or was detached.',
    );
  }
}

export async function mayCharge(
  ctx: SimulatorContext,
  organizationId: string,
  providerPaymentMethodId: string,
): Promise<boolean> {
  const card = await ctx.db
    .selectFrom('simulator_payment_methods')
    .select(['customer', 'detached_at'])
    .where('id', '=', providerPaymentMethodId)
    .executeTakeFirst();
  if (!card || card.detached_at) return false;
  return card.customer === null || card.customer === organizationId;
}

/** Detaches a saved card from its customer for good, as the provider does: it can pay nothing after. */
export async function detachPaymentMethod(
  ctx: SimulatorContext,
  providerPaymentMethodId: string,
): Promise<void> {
  const card = await ctx.db
    .updateTable('simulator_payment_methods')
    .set({ detached_at: ctx.now() })
    .where('id', '=', providerPaymentMethodId)
    .where('detached_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (card) return;
  const known = await ctx.db
    .selectFrom('simulator_payment_methods')
    .select('id')
    .where('id', '=', providerPaymentMethodId)
    .executeTakeFirst();
  // Detached already: nothing more to do. Unknown: the provider's answer for a made-up id.
  if (!known) throw new SimulatorRequestError(404, NO_SUCH_PAYMENT_METHOD);
}
