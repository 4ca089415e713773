import type { TaxId, TaxIdUpdate } from './schemas.ts';
import type { TaxIdKind } from './tax-id-kind.ts';
import { findTaxIdKind, withVatPrefix } from './tax-id-kinds.ts';

/** The catalogue kind a stored or submitted tax ID belongs to. */
export function taxIdKindOf(taxId: TaxId): TaxIdKind | undefined {
  return findTaxIdKind(taxId.type, taxId.country, taxId.value);
}

/** What the server stores for a valid request: the value gets its kind's VAT prefix when it lacks it. */
export function normalizeTaxId(input: TaxIdUpdate): TaxId {
  const country = input.country.trim().toUpperCase();
  const kind = findTaxIdKind(input.type, country, input.value);
  return { type: input.type, value: withVatPrefix(kind, input.value), country };
}
