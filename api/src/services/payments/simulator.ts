import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import {
  CardError,
  type CardDetails,
  type ChargeOutcome,
  type ChargeRequest,
  type PaymentGateway,
  type ProviderCard,
} from './payment-gateway.ts';

/** The card provider's standard test cards and what each does. */
export const TEST_CARDS: Record<string, { brand: string; outcome: TestOutcome }> = {
  '4242424242424242': { brand: 'visa', outcome: 'succeed' },
  '5555555555554444': { brand: 'mastercard', outcome: 'succeed' },
  '4000000000000002': { brand: 'visa', outcome: 'decline' },
  '4000000000009995': { brand: 'visa', outcome: 'insufficient_funds' },
  '4000000000000069': { brand: 'visa', outcome: 'expired' },
  '4000002500003155': { brand: 'visa', outcome: 'authenticate' },
};
type TestOutcome = 'succeed' | 'decline' | 'insufficient_funds' | 'expired' | 'authenticate';

export const DECLINE_MESSAGES: Record<Exclude<TestOutcome, 'succeed' | 'authenticate'>, string> = {
  decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired: 'Your card has expired.',
};
export const AUTHENTICATION_REQUIRED = 'This payment requires authentication by the card holder.';

const id = (prefix: string) => `${prefix}_sim_${randomBytes(12).toString('hex')}`;

function luhnValid(number: string): boolean {
  let total = 0;
  for (let index = 0; index < number.length; index++) {
    let digit = Number(number[number.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    total += digit;
  }
  return total % 10 === 0;
}

function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

/**
 * The built-in payment provider, with the card provider's test-mode semantics. It keeps its own tables
 * (its cards and intents), as a real provider keeps its own records.
 */
export class PaymentSimulator implements PaymentGateway {
  readonly provider = 'simulator';

  constructor(
    private readonly db: Db,
    private readonly now: () => Date,
  ) {}

  async createCard(card: CardDetails): Promise<ProviderCard> {
    const number = card.number.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) {
      throw new CardError('Your card number is invalid.');
    }
    const now = this.now();
    const expiry = Date.UTC(card.expYear, card.expMonth, 1);
    if (card.expMonth < 1 || card.expMonth > 12 || expiry <= now.getTime()) {
      throw new CardError("Your card's expiration date is in the past.");
    }
    if (!/^\d{3,4}$/.test(card.cvc)) throw new CardError("Your card's security code is invalid.");
    const brand = TEST_CARDS[number]?.brand ?? brandOf(number);
    const row = {
      id: id('pm'),
      card_number: number,
      brand,
      exp_month: card.expMonth,
      exp_year: card.expYear,
    };
    await this.db.insertInto('simulator_payment_methods').values(row).execute();
    return {
      providerPaymentMethodId: row.id,
      brand,
      last4: number.slice(-4),
      expMonth: card.expMonth,
      expYear: card.expYear,
    };
  }

  async charge(request: ChargeRequest): Promise<ChargeOutcome> {
    const existing = await this.db
      .selectFrom('simulator_payment_intents')
      .selectAll()
      .where('idempotency_key', '=', request.idempotencyKey)
      .executeTakeFirst();
    if (existing) return outcomeOf(existing);

    const card = await this.db
      .selectFrom('simulator_payment_methods')
      .selectAll()
      .where('id', '=', request.providerPaymentMethodId)
      .executeTakeFirst();
    if (!card) {
      return { status: 'failed', providerRef: null, message: 'No such payment method.' };
    }
    const behaviour = TEST_CARDS[card.card_number]?.outcome ?? 'succeed';
    let status: string;
    let failure: string | null = null;
    if (behaviour === 'succeed') status = 'succeeded';
    else if (behaviour === 'authenticate') {
      status = request.offSession ? 'failed' : 'requires_action';
      failure = request.offSession ? AUTHENTICATION_REQUIRED : null;
    } else {
      status = 'failed';
      failure = DECLINE_MESSAGES[behaviour];
    }
    const intent = {
      id: id('pi'),
      idempotency_key: request.idempotencyKey,
      amount_cents: request.amountCents,
      payment_method_id: card.id,
      status,
      failure_message: failure,
      client_secret: `${id('pi')}_secret_${randomBytes(8).toString('hex')}`,
    };
    // A concurrent twin with the same key loses the insert and reads the winner's outcome.
    const inserted = await this.db
      .insertInto('simulator_payment_intents')
      .values(intent)
      .onConflict((conflict) => conflict.column('idempotency_key').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return outcomeOf(inserted);
    const winner = await this.db
      .selectFrom('simulator_payment_intents')
      .selectAll()
      .where('idempotency_key', '=', request.idempotencyKey)
      .executeTakeFirstOrThrow();
    return outcomeOf(winner);
  }
}

function outcomeOf(intent: {
  id: string;
  status: string;
  failure_message: string | null;
  client_secret: string;
}): ChargeOutcome {
  if (intent.status === 'succeeded') return { status: 'succeeded', providerRef: intent.id };
  if (intent.status === 'requires_action') {
    return {
      status: 'requires_action',
      providerRef: intent.id,
      clientSecret: intent.client_secret,
    };
  }
  return {
    status: 'failed',
    providerRef: intent.id,
    message: intent.failure_message ?? 'Payment failed.',
  };
}
