import type { CustomerProfile, CustomerUpdate, TaxId, TaxIdUpdate } from './schemas.ts';
import { taxIdKindOf } from './tax-id.ts';
import { findTaxIdKindByName, withVatPrefix } from './tax-id-kinds.ts';

/** The Billing Address & Tax ID form, flat as the screen shows it; the tax ID kind is chosen by name. */
export interface BillingDataFormValues {
  billing_name: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  tax_id_name: string;
  tax_id_type: string;
  tax_id_value: string;
}

export type TaxIdChange = { action: 'set'; taxId: TaxIdUpdate } | { action: 'delete' };

/** What a save sends, in the spec's order: the profile first, then the tax ID; null parts send nothing. */
export interface BillingDataChanges {
  profile: CustomerUpdate | null;
  taxId: TaxIdChange | null;
}

export function billingDataFormValues(
  profile: Pick<CustomerProfile, 'billing_name' | 'address'> | null | undefined,
  taxId: TaxId | null | undefined,
): BillingDataFormValues {
  const address = profile?.address;
  const kind = taxId ? taxIdKindOf(taxId) : undefined;
  return {
    billing_name: profile?.billing_name ?? '',
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    postal_code: address?.postal_code ?? '',
    country: address?.country ?? '',
    tax_id_name: kind?.name ?? '',
    tax_id_type: taxId?.type ?? '',
    tax_id_value: taxId?.value ?? '',
  };
}

/** The profile update the form stands for; without a line1 the address is sent as empty. */
export function customerUpdateFromForm(values: BillingDataFormValues): CustomerUpdate {
  const line1 = values.line1.trim();
  const optional = (value: string) => (value.trim() ? value.trim() : undefined);
  return {
    billing_name: values.billing_name.trim(),
    address: line1
      ? {
          line1,
          line2: optional(values.line2),
          city: values.city.trim(),
          state: optional(values.state),
          postal_code: values.postal_code.trim(),
          country: values.country.trim().toUpperCase(),
        }
      : null,
  };
}

/**
 * The tax ID the form stands for: only when name, type and value are all non-empty, with the VAT prefix
 * added when the value lacks it; otherwise none.
 */
export function taxIdFromForm(values: BillingDataFormValues): TaxIdUpdate | null {
  const name = values.tax_id_name.trim();
  const type = values.tax_id_type.trim();
  const value = values.tax_id_value.trim();
  if (!name || !type || !value) return null;
  const kind = findTaxIdKindByName(name);
  return {
    type,
    value: withVatPrefix(kind, value),
    country: (kind?.countryIso2 ?? values.country).trim().toUpperCase(),
  };
}

function sameProfile(a: CustomerUpdate, b: CustomerUpdate): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function sameTaxId(a: TaxIdUpdate, b: TaxIdUpdate): boolean {
  return a.type === b.type && a.value === b.value && a.country === b.country;
}

/**
 * What saving the form must send, given the values it was loaded with and the values it holds now: the profile
 * when the name or address changed; the tax ID when a complete one differs from before; a delete when there
 * was one and now none is chosen.
 */
export function billingDataChanges(
  before: BillingDataFormValues,
  after: BillingDataFormValues,
): BillingDataChanges {
  const profileBefore = customerUpdateFromForm(before);
  const profileAfter = customerUpdateFromForm(after);
  const taxBefore = taxIdFromForm(before);
  const taxAfter = taxIdFromForm(after);

  let taxId: TaxIdChange | null = null;
  if (taxAfter && !(taxBefore && sameTaxId(taxBefore, taxAfter))) {
    taxId = { action: 'set', taxId: taxAfter };
  } else if (!taxAfter && taxBefore) {
    taxId = { action: 'delete' };
  }

  return {
    profile: sameProfile(profileBefore, profileAfter) ? null : profileAfter,
    taxId,
  };
}

export function hasBillingDataChanges(changes: BillingDataChanges): boolean {
  return changes.profile !== null || changes.taxId !== null;
}
