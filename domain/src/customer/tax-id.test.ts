import { describe, expect, it } from 'vitest';
import { normalizeTaxId, taxIdKindOf } from './tax-id.ts';

describe('normalizeTaxId', () => {
  it('adds the VAT prefix of the kind when the value lacks it', () => {
    expect(normalizeTaxId({ type: 'eu_vat', value: '1234567AB', country: 'IE' })).toEqual({
      type: 'eu_vat',
      value: 'IE1234567AB',
      country: 'IE',
    });
  });

  it('keeps a value that has its prefix, and one of a kind without a prefix', () => {
    expect(normalizeTaxId({ type: 'eu_vat', value: 'IE1234567AB', country: 'ie' }).value).toBe(
      'IE1234567AB',
    );
    expect(normalizeTaxId({ type: 'us_ein', value: '12-3456789', country: 'US' }).value).toBe(
      '12-3456789',
    );
  });

  it("keeps Northern Ireland's XI prefix on a GB eu_vat, and gives a bare one GB", () => {
    expect(normalizeTaxId({ type: 'eu_vat', value: 'XI123456789', country: 'GB' }).value).toBe(
      'XI123456789',
    );
    expect(normalizeTaxId({ type: 'eu_vat', value: '123456789', country: 'GB' }).value).toBe(
      'GB123456789',
    );
  });
});

describe('taxIdKindOf', () => {
  it('finds the kind of a stored tax ID', () => {
    expect(taxIdKindOf({ type: 'eu_vat', value: 'IE1', country: 'IE' })?.name).toBe('IE VAT');
    expect(taxIdKindOf({ type: 'eu_vat', value: 'XI1', country: 'GB' })?.name).toBe('XI VAT');
    expect(taxIdKindOf({ type: 'eu_vat', value: '1', country: 'US' })).toBeUndefined();
  });
});
