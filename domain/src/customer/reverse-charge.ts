import type { TaxId } from './schemas.ts';
import { taxIdKindOf } from './tax-id.ts';

/** The member states of the European Union, by ISO 3166 code. */
export const EU_MEMBER_STATES: readonly string[] = [
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU',
  'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
]; // prettier-ignore

/**
 * The EU member state that issued a VAT number, read from its prefix ("NL859811257B01" is NL; Greece
 * writes EL); null when the value does not start with an EU member state's prefix.
 */
export function euVatCountry(value: string): string | null {
  const prefix = value.trim().slice(0, 2).toUpperCase();
  const country = prefix === 'EL' ? 'GR' : prefix;
  return EU_MEMBER_STATES.includes(country) ? country : null;
}

/** The EU member state of a customer's tax ID when it is an EU VAT number; null otherwise. */
export function customerEuVatCountry(taxId: TaxId): string | null {
  if (taxId.type !== 'eu_vat') return null;
  const kind = taxIdKindOf(taxId);
  const country = kind?.taxCountryIso2 ?? kind?.countryIso2 ?? taxId.country;
  return EU_MEMBER_STATES.includes(country) ? country : null;
}

/**
 * Whether an invoice falls under the EU's reverse charge: a seller registered for VAT in one member state
 * bills a business with an EU VAT number of another member state, which then accounts for the VAT
 * itself. The seller's member state is its VAT number's; a seller without an EU VAT number, or a
 * customer without one, or both in the same member state, is not a reverse charge.
 */
export function isReverseCharge(sellerTaxId: string | null, customerTaxId: TaxId | null): boolean {
  if (sellerTaxId === null || customerTaxId === null) return false;
  const seller = euVatCountry(sellerTaxId);
  const customer = customerEuVatCountry(customerTaxId);
  return seller !== null && customer !== null && seller !== customer;
}
