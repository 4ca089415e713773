import type { SimulatorCard } from './simulator-api';

/**
 * The simulator's card fields as typed, and what the provider's own fields would say about them.
 * The messages are the provider's (Stripe Elements) for the same mistakes.
 */
export interface CardFieldValues {
  number: string;
  expiry: string;
  cvc: string;
}

export type CardFieldErrors = Partial<Record<keyof CardFieldValues, string>>;

export const EMPTY_CARD: CardFieldValues = { number: '', expiry: '', cvc: '' };

const digits = (text: string) => text.replace(/\D/g, '');

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover' | 'unknown';

export function cardBrandOf(number: string): CardBrand {
  const n = digits(number);
  if (/^4/.test(n)) return 'visa';
  if (/^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/.test(n)) return 'mastercard';
  if (/^3[47]/.test(n)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(n)) return 'discover';
  return 'unknown';
}

/** "4242424242424242" as "4242 4242 4242 4242" (American Express: 4-6-5). */
export function formatCardNumber(text: string): string {
  const n = digits(text).slice(0, 19);
  if (cardBrandOf(n) === 'amex') {
    return [n.slice(0, 4), n.slice(4, 10), n.slice(10, 15)].filter(Boolean).join(' ');
  }
  return n.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "1228" or "12/28" as "12 / 28"; a single digit above 1 is a month: "4" becomes "04 / ". */
export function formatExpiry(text: string, previous = ''): string {
  let n = digits(text).slice(0, 4);
  if (n.length === 1 && Number(n) > 1) n = `0${n}`;
  // Deleting the separator deletes the month's last digit too, or the separator would come back.
  if (previous.endsWith(' / ') && text.length < previous.length && n.length === 2) {
    return n.slice(0, 1);
  }
  if (n.length < 2) return n;
  if (n.length === 2) return `${n} / `;
  return `${n.slice(0, 2)} / ${n.slice(2)}`;
}

export function formatCvc(text: string): string {
  return digits(text).slice(0, 4);
}

function luhnValid(n: string): boolean {
  let sum = 0;
  for (let i = 0; i < n.length; i += 1) {
    let d = Number(n[n.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * What is wrong with the typed card, field by field, as the provider's fields would say it; empty
 * when the card can be sent. `now` decides whether the expiry is in the past.
 */
export function validateCard(values: CardFieldValues, now: Date = new Date()): CardFieldErrors {
  const errors: CardFieldErrors = {};
  const number = digits(values.number);
  const amex = cardBrandOf(number) === 'amex';
  if (number.length === 0 || number.length < (amex ? 15 : 16)) {
    errors.number = 'Your card number is incomplete.';
  } else if (!luhnValid(number)) {
    errors.number = 'Your card number is invalid.';
  }

  const expiry = digits(values.expiry);
  const month = Number(expiry.slice(0, 2));
  const year = 2000 + Number(expiry.slice(2, 4));
  if (expiry.length < 4) {
    errors.expiry = "Your card's expiration date is incomplete.";
  } else if (month < 1 || month > 12) {
    errors.expiry = "Your card's expiration date is invalid.";
  } else if (year < now.getFullYear()) {
    errors.expiry = "Your card's expiration year is in the past.";
  } else if (year === now.getFullYear() && month < now.getMonth() + 1) {
    errors.expiry = "Your card's expiration date is in the past.";
  }

  const cvc = digits(values.cvc);
  if (cvc.length < (amex ? 4 : 3)) errors.cvc = "Your card's security code is incomplete.";
  return errors;
}

/** The card to send; call only when `validateCard` found nothing. */
export function toSimulatorCard(values: CardFieldValues): SimulatorCard {
  const expiry = digits(values.expiry);
  return {
    number: digits(values.number),
    exp_month: Number(expiry.slice(0, 2)),
    exp_year: 2000 + Number(expiry.slice(2, 4)),
    cvc: digits(values.cvc),
  };
}
