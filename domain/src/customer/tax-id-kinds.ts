import type { TaxIdKind } from './tax-id-kind.ts';
import { TAX_ID_KINDS as DATA } from './tax-id-kinds-data.ts';

/** The 137 kinds of the catalogue, in its order. */
export const TAX_ID_KINDS: readonly TaxIdKind[] = DATA;
export type TaxIdType = (typeof DATA)[number]['type'];

const KINDS = TAX_ID_KINDS;
const TYPES: ReadonlySet<string> = new Set(KINDS.map((kind) => kind.type));

/** The kinds a billing address in this country may choose from, in catalogue order. */
export function taxIdKindsForCountry(iso2: string | null | undefined): TaxIdKind[] {
  const country = iso2?.trim().toUpperCase();
  if (!country) return [];
  return KINDS.filter((kind) => kind.countryIso2 === country);
}

export function isTaxIdType(type: string): boolean {
  return TYPES.has(type);
}

export function findTaxIdKindByName(name: string): TaxIdKind | undefined {
  return KINDS.find((kind) => kind.name === name);
}

function startsWithPrefix(value: string, prefix: string): boolean {
  return value.trim().toUpperCase().startsWith(prefix.toUpperCase());
}

/**
 * The kind of this type offered in this country. One pair is ambiguous: a GB address offers two eu_vat kinds
 * (GB VAT and XI VAT for Northern Ireland), so the value's prefix picks between them, GB VAT otherwise.
 */
export function findTaxIdKind(
  type: string,
  country: string,
  value?: string,
): TaxIdKind | undefined {
  const candidates = taxIdKindsForCountry(country).filter((kind) => kind.type === type);
  if (candidates.length > 1 && value !== undefined) {
    const byPrefix = candidates.find(
      (kind) => kind.vatPrefix !== undefined && startsWithPrefix(value, kind.vatPrefix),
    );
    if (byPrefix) return byPrefix;
  }
  return candidates[0];
}

/**
 * The spec's save rule: when the kind has a VAT prefix and the value lacks it, the prefix is added. The check
 * ignores case ("ie123" already has it) and writes the prefix in capitals; an empty value stays empty.
 */
export function withVatPrefix(kind: TaxIdKind | undefined, value: string): string {
  const trimmed = value.trim();
  const prefix = kind?.vatPrefix;
  if (!prefix || trimmed === '') return trimmed;
  if (startsWithPrefix(trimmed, prefix)) return prefix + trimmed.slice(prefix.length);
  return prefix + trimmed;
}

/** Why a (type, country) pair is refused, or undefined when the catalogue offers it. */
export function taxIdKindProblem(type: string, country: string): string | undefined {
  if (!isTaxIdType(type)) return `Tax ID type ${type} is not in the catalogue`;
  if (!findTaxIdKind(type, country)) return `Tax ID type ${type} is not offered for ${country}`;
  return undefined;
}
