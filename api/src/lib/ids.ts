import { randomBytes } from 'node:crypto';

export function newId(prefix: 'in' | 'ch' | 'pm' | 'pc' | 'sr' | 'em' | 'sa' | 'dp'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** Prefixes of seven base-36 characters: 36^7 of them, none of the eight characters of the old ones. */
const PREFIX_LENGTH = 7;
const PREFIX_SPACE = 36n ** BigInt(PREFIX_LENGTH);
// Coprime with 36, so multiplying by it modulo 36^7 is a bijection: distinct allocations give distinct
// prefixes, and consecutive ones do not read as a count of the organizations we bill.
const SPREAD = 48_432_477_179n;

/**
 * The invoice prefix of the organization that drew `allocation` from the global prefix sequence, e.g.
 * "0K3Z9QD". Organizations numbered before prefixes were allocated keep the eight hex digits of their
 * id (ML-3F2A9C1B-0013); being eight characters long, those can never equal an allocated prefix.
 */
export function invoicePrefix(allocation: number): string {
  const value = BigInt(allocation);
  if (!Number.isSafeInteger(allocation) || value < 1n || value >= PREFIX_SPACE) {
    throw new RangeError(`No invoice prefix for allocation ${allocation}`);
  }
  return ((value * SPREAD) % PREFIX_SPACE).toString(36).toUpperCase().padStart(PREFIX_LENGTH, '0');
}

/** Invoice numbers: the organization's prefix and its running count, e.g. ML-0K3Z9QD-0013. */
export function invoiceNumber(prefix: string, sequence: number): string {
  return `ML-${prefix}-${String(sequence).padStart(4, '0')}`;
}
