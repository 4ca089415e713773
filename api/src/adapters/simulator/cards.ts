import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../../db/database.ts';
import { CardError, type CardDetails } from '../payment-gateway.ts';

/** What a card does when it is charged or set up: decided once, when it is tokenized. */
export type CardBehaviour =
  'succeed' | 'decline' | 'insufficient_funds' | 'expired' | 'authenticate' | 'authenticate_always';

/** The card provider's standard test cards and what each does; any other valid number succeeds. */
export const TEST_CARDS: Record<string, { brand: string; behaviour: CardBehaviour }> = {
  '4242424242424242': { brand: 'visa', behaviour: 'succeed' },
  '5555555555554444': { brand: 'mastercard', behaviour: 'succeed' },
  '4000000000000002': { brand: 'visa', behaviour: 'decline' },
  '4000000000009995': { brand: 'visa', behaviour: 'insufficient_funds' },
  '4000000000000069': { brand: 'visa', behaviour: 'expired' },
  // Asks for 3-D Secure when saved or paid with once; a card saved with it authenticated is not asked again.
  '4000002500003155': { brand: 'visa', behaviour: 'authenticate' },
  // Asks for 3-D Secure on every payment, however it was saved.
  '4000002760003184': { brand: 'visa', behaviour: 'authenticate_always' },
};

export const DECLINE_MESSAGES: Record<
  Exclude<CardBehaviour, 'succeed' | 'authenticate' | 'authenticate_always'>,
  string
> = {
  decline: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  expired: 'Your card has expired.',
};

/**
 * A typed card as the simulator keeps it. The number itself is never stored, as the provider never hands
 * it back: its last 4 digits to show, a fingerprint to recognise the same card, and the test-card
 * behaviour it was tokenized with.
 */
export interface TokenizedCard {
  brand: string;
  last4: string;
  fingerprint: string;
  behaviour: CardBehaviour;
  expMonth: number;
  expYear: number;
}

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
 * Keyed with a secret of this database, so the fingerprints of a leaked table cannot be matched against
 * card numbers computed elsewhere. Migration 0010 computes the same for the cards stored before it.
 */
export function cardFingerprint(pepper: string, number: string): string {
  return createHmac('sha256', pepper).update(number).digest('hex');
}

const PEPPER_KEY = 'simulator_card_pepper';

/** The database's fingerprint key, made on first use (migration 0010 makes it for existing cards). */
export async function cardPepper(db: Db): Promise<string> {
  await db
    .insertInto('app_meta')
    .values({ key: PEPPER_KEY, value: randomBytes(32).toString('hex') })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_meta')
    .select('value')
    .where('key', '=', PEPPER_KEY)
    .executeTakeFirstOrThrow();
  return row.value;
}

/**
 * Checks a card as the provider's fields would (throws the provider's message for a bad one) and reduces
 * it to what may be kept. The number goes no further than this function.
 */
export function tokenizeCard(card: CardDetails, pepper: string, now: Date): TokenizedCard {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) {
    throw new CardError('Your card number is invalid.');
  }
  const expiry = Date.UTC(card.expYear, card.expMonth, 1);
  if (card.expMonth < 1 || card.expMonth > 12 || expiry <= now.getTime()) {
    throw new CardError("Your card's expiration date is in the past.");
  }
  if (!/^\d{3,4}$/.test(card.cvc)) throw new CardError("Your card's security code is invalid.");
  const known = TEST_CARDS[number];
  return {
    brand: known?.brand ?? brandOf(number),
    last4: number.slice(-4),
    fingerprint: cardFingerprint(pepper, number),
    behaviour: known?.behaviour ?? 'succeed',
    expMonth: card.expMonth,
    expYear: card.expYear,
  };
}
