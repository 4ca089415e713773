import { describe, expect, it } from 'vitest';
import {
  cardBrandOf,
  formatCardNumber,
  formatExpiry,
  toSimulatorCard,
  validateCard,
} from './card-details';

const NOV_2026 = new Date(Date.UTC(2026, 10, 15));

describe('simulator card fields', () => {
  it('formats the number in groups as typed, and names the brand', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4000 0025 0000 3155 99999')).toBe('4000 0025 0000 3155 999');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(cardBrandOf('4242')).toBe('visa');
    expect(cardBrandOf('5555 5555')).toBe('mastercard');
    expect(cardBrandOf('2223')).toBe('mastercard');
    expect(cardBrandOf('9999')).toBe('unknown');
  });

  it('formats the expiry as MM / YY', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('4')).toBe('04 / ');
    expect(formatExpiry('12')).toBe('12 / ');
    expect(formatExpiry('1230')).toBe('12 / 30');
    // Backspace over the separator removes the month's last digit.
    expect(formatExpiry('12 /', '12 / ')).toBe('1');
  });

  it('accepts the simulator test cards with a future expiry', () => {
    for (const number of [
      '4242 4242 4242 4242',
      '4000 0000 0000 0002',
      '4000 0025 0000 3155',
      '4000 0000 0000 9995',
      '4000 0000 0000 0069',
    ]) {
      expect(validateCard({ number, expiry: '12 / 30', cvc: '123' }, NOV_2026)).toEqual({});
    }
    expect(
      toSimulatorCard({ number: '4242 4242 4242 4242', expiry: '01 / 30', cvc: '123' }),
    ).toEqual({ number: '4242424242424242', exp_month: 1, exp_year: 2030, cvc: '123' });
  });

  it("says what is wrong in the provider's words", () => {
    expect(validateCard({ number: '', expiry: '', cvc: '' }, NOV_2026)).toEqual({
      number: 'Your card number is incomplete.',
      expiry: "Your card's expiration date is incomplete.",
      cvc: "Your card's security code is incomplete.",
    });
    expect(
      validateCard({ number: '4242 4242 4242 4241', expiry: '10 / 26', cvc: '12' }, NOV_2026),
    ).toEqual({
      number: 'Your card number is invalid.',
      expiry: "Your card's expiration date is in the past.",
      cvc: "Your card's security code is incomplete.",
    });
    expect(
      validateCard({ number: '4242424242424242', expiry: '13 / 30', cvc: '123' }, NOV_2026),
    ).toEqual({ expiry: "Your card's expiration date is invalid." });
    expect(
      validateCard({ number: '4242424242424242', expiry: '12 / 25', cvc: '123' }, NOV_2026),
    ).toEqual({ expiry: "Your card's expiration year is in the past." });
    // The current month is still valid.
    expect(
      validateCard({ number: '4242424242424242', expiry: '11 / 26', cvc: '123' }, NOV_2026),
    ).toEqual({});
  });
});
