import { describe, expect, it } from 'vitest';
import { euVatCountry, isReverseCharge } from './reverse-charge.ts';

const irishVat = { type: 'eu_vat', value: 'IE9826471FA', country: 'IE' };

describe('isReverseCharge', () => {
  it('applies when an EU seller bills a business with a VAT number of another member state', () => {
    expect(isReverseCharge('NL859811257B01', irishVat)).toBe(true);
    expect(isReverseCharge('EL123456789', irishVat)).toBe(true);
  });

  it('does not apply within one member state', () => {
    expect(isReverseCharge('IE6388047V', irishVat)).toBe(false);
  });

  it('does not apply without an EU VAT number on either side', () => {
    expect(isReverseCharge(null, irishVat)).toBe(false);
    expect(isReverseCharge('NL859811257B01', null)).toBe(false);
    expect(isReverseCharge('US12-3456789', irishVat)).toBe(false);
    expect(
      isReverseCharge('NL859811257B01', { type: 'us_ein', value: '12-3456789', country: 'US' }),
    ).toBe(false);
    // The United Kingdom left the Union: its VAT numbers are not EU ones.
    expect(
      isReverseCharge('NL859811257B01', { type: 'eu_vat', value: 'GB123456789', country: 'GB' }),
    ).toBe(false);
  });

  it('reads the member state from a VAT number, Greece as EL', () => {
    expect(euVatCountry('de123456789')).toBe('DE');
    expect(euVatCountry('EL123456789')).toBe('GR');
    expect(euVatCountry('CHE-123.456.789')).toBeNull();
  });
});
