import { describe, expect, it } from 'vitest';
import { isKnownCountry } from './countries.ts';
import {
  TAX_ID_KINDS,
  findTaxIdKind,
  findTaxIdKindByName,
  isTaxIdType,
  taxIdKindProblem,
  taxIdKindsForCountry,
  withVatPrefix,
} from './tax-id-kinds.ts';

function kind(name: string) {
  const found = findTaxIdKindByName(name);
  if (!found) throw new Error(`no kind ${name}`);
  return found;
}

describe('the tax ID catalogue', () => {
  it('holds the 137 kinds of the spec data, each name once', () => {
    expect(TAX_ID_KINDS).toHaveLength(137);
    expect(new Set(TAX_ID_KINDS.map((k) => k.name)).size).toBe(137);
  });

  it('gives every EU VAT kind the shared type eu_vat and a prefix', () => {
    const euVat = TAX_ID_KINDS.filter((k) => k.type === 'eu_vat');
    expect(euVat).toHaveLength(29);
    for (const k of euVat) expect(k.vatPrefix).toMatch(/^[A-Z]{2,3}$/);
  });

  it('names only countries that ISO 3166 knows', () => {
    for (const k of TAX_ID_KINDS) {
      expect(isKnownCountry(k.countryIso2), k.name).toBe(true);
      if (k.taxCountryIso2) expect(isKnownCountry(k.taxCountryIso2), k.name).toBe(true);
    }
  });

  it('keeps the row as the spec spells it', () => {
    expect(kind('IE VAT')).toEqual({
      name: 'IE VAT',
      type: 'eu_vat',
      country: 'Ireland',
      countryIso2: 'IE',
      placeholder: 'IE1234567AB',
      vatPrefix: 'IE',
    });
    expect(kind('IM VAT')).toMatchObject({
      type: 'gb_vat',
      countryIso2: 'IM',
      taxCountryIso2: 'GB',
    });
    expect(kind('US EIN')).not.toHaveProperty('vatPrefix');
  });
});

describe('taxIdKindsForCountry', () => {
  it('offers only the kinds of the chosen country, in catalogue order', () => {
    expect(taxIdKindsForCountry('DE').map((k) => k.name)).toEqual(['DE VAT', 'DE STN']);
    expect(taxIdKindsForCountry('GB').map((k) => k.name)).toEqual(['GB VAT', 'UK VAT', 'XI VAT']);
    expect(taxIdKindsForCountry('US').map((k) => k.type)).toEqual(['us_ein']);
  });

  it('ignores case and blanks around the code', () => {
    expect(taxIdKindsForCountry(' ie ')).toEqual([kind('IE VAT')]);
  });

  it('offers nothing for no country, an unknown one, or one without kinds', () => {
    expect(taxIdKindsForCountry('')).toEqual([]);
    expect(taxIdKindsForCountry(null)).toEqual([]);
    expect(taxIdKindsForCountry(undefined)).toEqual([]);
    expect(taxIdKindsForCountry('ZZ')).toEqual([]);
    expect(taxIdKindsForCountry('AQ')).toEqual([]);
  });
});

describe('findTaxIdKind', () => {
  it('finds the EU VAT kind by its country', () => {
    expect(findTaxIdKind('eu_vat', 'IE')).toBe(kind('IE VAT'));
    expect(findTaxIdKind('eu_vat', 'GR')).toBe(kind('EL VAT'));
  });

  it('finds nothing for a kind of another country or an unknown type', () => {
    expect(findTaxIdKind('eu_vat', 'US')).toBeUndefined();
    expect(findTaxIdKind('us_ein', 'IE')).toBeUndefined();
    expect(findTaxIdKind('xx_nope', 'IE')).toBeUndefined();
  });

  it("tells GB's two eu_vat kinds apart by the value's prefix, GB VAT otherwise", () => {
    expect(findTaxIdKind('eu_vat', 'GB', 'XI123456789')).toBe(kind('XI VAT'));
    expect(findTaxIdKind('eu_vat', 'GB', 'xi123456789')).toBe(kind('XI VAT'));
    expect(findTaxIdKind('eu_vat', 'GB', 'GB123456789')).toBe(kind('GB VAT'));
    expect(findTaxIdKind('eu_vat', 'GB', '123456789')).toBe(kind('GB VAT'));
    expect(findTaxIdKind('eu_vat', 'GB')).toBe(kind('GB VAT'));
    expect(findTaxIdKind('gb_vat', 'GB')).toBe(kind('UK VAT'));
  });
});

describe('withVatPrefix', () => {
  it('adds the prefix when the value lacks it', () => {
    expect(withVatPrefix(kind('IE VAT'), '1234567AB')).toBe('IE1234567AB');
    expect(withVatPrefix(kind('AT VAT'), '12345678')).toBe('ATU12345678');
    expect(withVatPrefix(kind('CH VAT'), '123.456.789 MWST')).toBe('CHE123.456.789 MWST');
  });

  it('leaves a value that has it, writing the prefix in capitals', () => {
    expect(withVatPrefix(kind('IE VAT'), 'IE1234567AB')).toBe('IE1234567AB');
    expect(withVatPrefix(kind('IE VAT'), 'ie1234567AB')).toBe('IE1234567AB');
  });

  it('trims, and leaves kinds without a prefix, no kind and empty values alone', () => {
    expect(withVatPrefix(kind('IE VAT'), '  1234567AB ')).toBe('IE1234567AB');
    expect(withVatPrefix(kind('US EIN'), '12-3456789')).toBe('12-3456789');
    expect(withVatPrefix(undefined, ' 123 ')).toBe('123');
    expect(withVatPrefix(kind('IE VAT'), '  ')).toBe('');
  });

  it('is idempotent', () => {
    for (const k of TAX_ID_KINDS) {
      const once = withVatPrefix(k, '12345');
      expect(withVatPrefix(k, once)).toBe(once);
    }
  });
});

describe('taxIdKindProblem', () => {
  it('accepts a kind the country offers', () => {
    expect(taxIdKindProblem('eu_vat', 'IE')).toBeUndefined();
    expect(isTaxIdType('eu_vat')).toBe(true);
  });

  it('names an unknown type and a kind of another country', () => {
    expect(taxIdKindProblem('xx_nope', 'IE')).toBe('Tax ID type xx_nope is not in the catalogue');
    expect(taxIdKindProblem('eu_vat', 'US')).toBe('Tax ID type eu_vat is not offered for US');
    expect(isTaxIdType('xx_nope')).toBe(false);
  });
});
