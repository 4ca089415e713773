import { describe, expect, it } from 'vitest';
import {
  billingDataChanges,
  billingDataFormValues,
  customerUpdateFromForm,
  hasBillingDataChanges,
  taxIdFromForm,
  type BillingDataFormValues,
} from './billing-data.ts';

const ADDRESS = {
  line1: '1 Grand Canal Square',
  city: 'Dublin',
  postal_code: 'D02 P820',
  country: 'IE',
};

const LOADED: BillingDataFormValues = billingDataFormValues(
  { billing_name: 'Acme Pro Inc.', address: ADDRESS },
  { type: 'eu_vat', value: 'IE6388047V', country: 'IE' },
);

const EMPTY: BillingDataFormValues = billingDataFormValues(null, null);

describe('billingDataFormValues', () => {
  it('flattens the profile and finds the tax ID kind by name', () => {
    expect(LOADED).toEqual({
      billing_name: 'Acme Pro Inc.',
      line1: '1 Grand Canal Square',
      line2: '',
      city: 'Dublin',
      state: '',
      postal_code: 'D02 P820',
      country: 'IE',
      tax_id_name: 'IE VAT',
      tax_id_type: 'eu_vat',
      tax_id_value: 'IE6388047V',
    });
  });

  it('starts empty without a profile or tax ID', () => {
    expect(Object.values(EMPTY).every((value) => value === '')).toBe(true);
  });
});

describe('customerUpdateFromForm', () => {
  it('sends the address trimmed, empty optional fields left out', () => {
    expect(customerUpdateFromForm({ ...LOADED, line1: ' 1 Grand Canal Square ' })).toEqual({
      billing_name: 'Acme Pro Inc.',
      address: ADDRESS,
    });
  });

  it('sends the address as empty when no line1 is given', () => {
    expect(customerUpdateFromForm({ ...LOADED, line1: '  ' }).address).toBeNull();
  });
});

describe('taxIdFromForm', () => {
  it('adds the VAT prefix when the value lacks it, the country from the kind', () => {
    expect(
      taxIdFromForm({
        ...EMPTY,
        tax_id_name: 'IE VAT',
        tax_id_type: 'eu_vat',
        tax_id_value: '6388047V',
      }),
    ).toEqual({ type: 'eu_vat', value: 'IE6388047V', country: 'IE' });
  });

  it.each([
    ['name', { tax_id_name: '' }],
    ['type', { tax_id_type: '' }],
    ['value', { tax_id_value: '  ' }],
  ])('sends no tax ID when the %s is empty', (_field, change) => {
    expect(taxIdFromForm({ ...LOADED, ...change })).toBeNull();
  });
});

describe('billingDataChanges', () => {
  it('sends nothing when nothing changed', () => {
    const changes = billingDataChanges(LOADED, { ...LOADED });
    expect(changes).toEqual({ profile: null, taxId: null });
    expect(hasBillingDataChanges(changes)).toBe(false);
  });

  it('sends nothing for a change of blanks only', () => {
    expect(billingDataChanges(LOADED, { ...LOADED, billing_name: ' Acme Pro Inc. ' })).toEqual({
      profile: null,
      taxId: null,
    });
  });

  it('sends the profile alone when the name changed', () => {
    const changes = billingDataChanges(LOADED, { ...LOADED, billing_name: 'Acme Holdings' });
    expect(changes).toEqual({
      profile: { billing_name: 'Acme Holdings', address: ADDRESS },
      taxId: null,
    });
    expect(hasBillingDataChanges(changes)).toBe(true);
  });

  it('sends the profile with an empty address when line1 was cleared', () => {
    const changes = billingDataChanges(LOADED, { ...LOADED, line1: '' });
    expect(changes.profile).toEqual({ billing_name: 'Acme Pro Inc.', address: null });
  });

  it('sets the tax ID alone, prefixed, when only its value changed', () => {
    const changes = billingDataChanges(LOADED, { ...LOADED, tax_id_value: '9999999W' });
    expect(changes).toEqual({
      profile: null,
      taxId: { action: 'set', taxId: { type: 'eu_vat', value: 'IE9999999W', country: 'IE' } },
    });
  });

  it('sends nothing when the value only gained the prefix it already had on the server', () => {
    expect(billingDataChanges(LOADED, { ...LOADED, tax_id_value: '6388047V' }).taxId).toBeNull();
  });

  it('sets a tax ID of another kind', () => {
    const after = {
      ...LOADED,
      country: 'DE',
      tax_id_name: 'DE VAT',
      tax_id_type: 'eu_vat',
      tax_id_value: '123456789',
    };
    expect(billingDataChanges(LOADED, after)).toEqual({
      profile: { billing_name: 'Acme Pro Inc.', address: { ...ADDRESS, country: 'DE' } },
      taxId: { action: 'set', taxId: { type: 'eu_vat', value: 'DE123456789', country: 'DE' } },
    });
  });

  it('deletes the tax ID when the clear button emptied it', () => {
    const cleared = { ...LOADED, tax_id_name: '', tax_id_type: '', tax_id_value: '' };
    expect(billingDataChanges(LOADED, cleared)).toEqual({
      profile: null,
      taxId: { action: 'delete' },
    });
  });

  it('deletes nothing when there was no tax ID and none is chosen', () => {
    const after = { ...EMPTY, billing_name: 'New Co', ...ADDRESS };
    expect(billingDataChanges(EMPTY, after)).toEqual({
      profile: { billing_name: 'New Co', address: ADDRESS },
      taxId: null,
    });
  });

  it('sends a new tax ID only once name, type and value are all set', () => {
    const chosen = { ...EMPTY, tax_id_name: 'US EIN', tax_id_type: 'us_ein' };
    expect(billingDataChanges(EMPTY, chosen).taxId).toBeNull();
    expect(billingDataChanges(EMPTY, { ...chosen, tax_id_value: '12-3456789' }).taxId).toEqual({
      action: 'set',
      taxId: { type: 'us_ein', value: '12-3456789', country: 'US' },
    });
  });
});
