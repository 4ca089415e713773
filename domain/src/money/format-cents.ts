import type { Cents } from './cents.ts';
import { toCents } from './cents.ts';

/** "$1,234.56", "-$50.00": en-US, USD, from integer cents without dividing a float. */
export function formatCents(amount: Cents): string {
  const cents = BigInt(toCents(amount));
  const magnitude = cents < 0n ? -cents : cents;
  const dollars = (magnitude / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const rest = (magnitude % 100n).toString().padStart(2, '0');
  return `${cents < 0n ? '-' : ''}$${dollars}.${rest}`;
}

const FORMATTED = /^(-?)\$(\d{1,3}(?:,\d{3})*)\.(\d{2})$/;

/** The inverse of formatCents; null for any other text. */
export function parseFormattedCents(text: string): Cents | null {
  const match = FORMATTED.exec(text);
  if (!match) return null;
  const [, sign = '', dollars = '0', rest = '00'] = match;
  const magnitude = BigInt(dollars.replaceAll(',', '')) * 100n + BigInt(rest);
  const cents = Number(sign === '-' ? -magnitude : magnitude);
  return Number.isSafeInteger(cents) ? cents : null;
}
