import { randomBytes } from 'node:crypto';

export function newId(prefix: 'in' | 'ch' | 'pm'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/** Invoice numbers: a stable per-organization prefix and a running count, e.g. ML-3F2A9C1B-0013. */
export function invoiceNumber(organizationId: string, sequence: number): string {
  const prefix = organizationId.replaceAll('-', '').slice(0, 8).toUpperCase();
  return `ML-${prefix}-${String(sequence).padStart(4, '0')}`;
}
