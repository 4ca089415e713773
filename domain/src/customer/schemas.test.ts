import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import {
  customerAddressSchema,
  customerProfileSchema,
  customerUpdateSchema,
  storedTaxIdSchema,
  taxIdResponseSchema,
  taxIdSchema,
} from './schemas.ts';

const ADDRESS = {
  line1: '1 Grand Canal Square',
  line2: 'Floor 3',
  city: 'Dublin',
  state: 'Co. Dublin',
  postal_code: 'D02 P820',
  country: 'IE',
};

function messages(result: { error?: { issues: { message: string }[] } }): string[] {
  return result.error?.issues.map((issue) => issue.message) ?? [];
}

describe('customerAddressSchema', () => {
  it('accepts a full address, trimmed, the country upper-cased', () => {
    const parsed = customerAddressSchema.parse({
      ...ADDRESS,
      line1: '  1 Grand Canal Square ',
      city: ' Dublin ',
      country: ' ie ',
    });
    expect(parsed).toEqual(ADDRESS);
  });

  it('leaves line2 and state optional, and state may be empty', () => {
    const { line2: _line2, state: _state, ...required } = ADDRESS;
    expect(customerAddressSchema.parse(required)).toEqual(required);
    expect(customerAddressSchema.parse({ ...required, state: '  ' }).state).toBe('');
  });

  it.each([
    ['line1', '  ab  ', 'Address line 1 must be at least 3 characters'],
    ['line1', 'x', 'Address line 1 must be at least 3 characters'],
    ['line1', '', 'Address line 1 is required'],
    ['line1', undefined, 'Address line 1 is required'],
    ['city', ' D ', 'City must be at least 2 characters'],
    ['city', undefined, 'City is required'],
    ['postal_code', '   ', 'Postal code is required'],
    ['postal_code', undefined, 'Postal code is required'],
    ['country', '  ', 'Country is required'],
    ['country', undefined, 'Country is required'],
    ['country', 'ZZ', 'Country ZZ is not an ISO 3166-1 alpha-2 country code'],
    ['country', 'Ireland', 'Country IRELAND is not an ISO 3166-1 alpha-2 country code'],
    ['line1', 'x'.repeat(201), 'Address line 1 must be at most 200 characters'],
    ['line2', 'x'.repeat(201), 'Address line 2 must be at most 200 characters'],
    ['state', 'x'.repeat(201), 'State must be at most 200 characters'],
    ['postal_code', 'x'.repeat(21), 'Postal code must be at most 20 characters'],
  ])('refuses %s = %j with "%s", and only that', (field, value, message) => {
    const result = customerAddressSchema.safeParse({ ...ADDRESS, [field]: value });
    expect(messages(result)).toEqual([message]);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });

  it.each([
    ['line1', 'Address line 1 must not contain control characters'],
    ['city', 'City must not contain control characters'],
    ['state', 'State must not contain control characters'],
    ['postal_code', 'Postal code must not contain control characters'],
  ])('refuses a control character in %s (PostgreSQL cannot store a NUL)', (field, message) => {
    const result = customerAddressSchema.safeParse({ ...ADDRESS, [field]: 'Main\u0000 Street' });
    expect(messages(result)).toEqual([message]);
  });

  it('accepts the shortest values the rules allow', () => {
    const parsed = customerAddressSchema.parse({
      line1: 'abc',
      city: 'Ab',
      postal_code: '1',
      country: 'US',
    });
    expect(parsed.line1).toBe('abc');
  });

  it('refuses unknown fields', () => {
    expect(customerAddressSchema.safeParse({ ...ADDRESS, zip: '1' }).success).toBe(false);
  });
});

describe('customerUpdateSchema', () => {
  it('accepts a name and an address', () => {
    expect(customerUpdateSchema.parse({ billing_name: ' Acme ', address: ADDRESS })).toEqual({
      billing_name: 'Acme',
      address: ADDRESS,
    });
  });

  it.each([
    null,
    undefined,
    {},
    { line1: '', line2: ' ', city: '', state: '', postal_code: '', country: '' },
  ])('takes %j as no address', (address) => {
    expect(customerUpdateSchema.parse({ billing_name: 'Acme', address })).toEqual({
      billing_name: 'Acme',
      address: null,
    });
  });

  it('refuses a partial address with the rule of its first missing field', () => {
    const result = customerUpdateSchema.safeParse({
      billing_name: 'Acme',
      address: { city: 'Dublin', postal_code: 'D02', country: 'IE' },
    });
    expect(messages(result)).toEqual(['Address line 1 is required']);
    expect(result.error?.issues[0]?.path).toEqual(['address', 'line1']);
  });

  it.each([
    ['ab', 'Name must be at least 3 letters long'],
    ['  ab  ', 'Name must be at least 3 letters long'],
    ['', 'Name must be at least 3 letters long'],
    [undefined, 'Name must be at least 3 letters long'],
    ['x'.repeat(201), 'Name must be at most 200 characters'],
    ['Acme\u0000', 'Name must not contain control characters'],
    ['Acme\nInc', 'Name must not contain control characters'],
    // Half a surrogate pair, which JSON can carry and PostgreSQL's jsonb refuses; a whole pair is text.
    ['Acme \udfff', 'Name must not contain control characters'],
  ])('refuses billing_name %j with "%s"', (billingName, message) => {
    const result = customerUpdateSchema.safeParse({ billing_name: billingName, address: null });
    expect(messages(result)).toEqual([message]);
  });

  it('takes a body without an address as no address, as its document says', () => {
    expect(customerUpdateSchema.parse({ billing_name: 'Acme' })).toEqual({
      billing_name: 'Acme',
      address: null,
    });
    const document = z.toJSONSchema(customerUpdateSchema, { io: 'input' });
    expect(document.$defs?.CustomerUpdate?.required).toEqual(['billing_name']);
  });

  it('accepts a three-letter name', () => {
    expect(customerUpdateSchema.parse({ billing_name: 'Abc', address: null }).billing_name).toBe(
      'Abc',
    );
  });

  it('refuses fields it does not own', () => {
    const result = customerUpdateSchema.safeParse({
      billing_name: 'Acme',
      address: null,
      additional_emails: [],
    });
    expect(result.success).toBe(false);
  });
});

describe('customerProfileSchema', () => {
  it('carries the name, the address or null, the emails, the balance and the partner billing', () => {
    const profile = {
      billing_name: 'Acme',
      address: ADDRESS,
      additional_emails: ['finance@acme.example.com'],
      email: 'billing@acme.example.com',
      balance: 5000,
      billing_via_partner: false,
    };
    expect(customerProfileSchema.parse(profile)).toEqual(profile);
    const empty = {
      billing_name: null,
      address: null,
      additional_emails: [],
      email: null,
      balance: 0,
      billing_via_partner: true,
    };
    expect(customerProfileSchema.parse(empty)).toEqual(empty);
  });
});

describe('taxIdSchema', () => {
  it('accepts a kind the country offers, trimmed, the country upper-cased', () => {
    expect(taxIdSchema.parse({ type: 'eu_vat', value: ' 1234567AB ', country: 'ie' })).toEqual({
      type: 'eu_vat',
      value: '1234567AB',
      country: 'IE',
    });
  });

  it.each([
    [{ type: 'eu_vat', value: 'x', country: 'IE' }, 'Tax ID needs to be set.', ['value']],
    [{ type: 'eu_vat', value: '   ', country: 'IE' }, 'Tax ID needs to be set.', ['value']],
    [{ type: 'eu_vat', country: 'IE' }, 'Tax ID needs to be set.', ['value']],
    [
      { type: 'eu_vat', value: '1'.repeat(65), country: 'IE' },
      'Tax ID must be at most 64 characters',
      ['value'],
    ],
    [{ type: '', value: '123', country: 'IE' }, 'Tax ID type is required', ['type']],
    [{ value: '123', country: 'IE' }, 'Tax ID type is required', ['type']],
    [{ type: 'eu_vat', value: '123', country: ' ' }, 'Tax ID country is required', ['country']],
    [{ type: 'eu_vat', value: '123' }, 'Tax ID country is required', ['country']],
    [
      { type: 'eu_vat', value: '123', country: 'US' },
      'Tax ID type eu_vat is not offered for US',
      ['type'],
    ],
    [
      { type: 'us_ein', value: '123', country: 'IE' },
      'Tax ID type us_ein is not offered for IE',
      ['type'],
    ],
    [
      { type: 'xx_nope', value: '123', country: 'IE' },
      'Tax ID type xx_nope is not in the catalogue',
      ['type'],
    ],
    [
      { type: 'eu_vat\u0000', value: '123', country: 'IE' },
      'Tax ID type is not a type of the catalogue',
      ['type'],
    ],
    [
      { type: 'x'.repeat(33), value: '123', country: 'IE' },
      'Tax ID type must be at most 32 characters',
      ['type'],
    ],
    [
      { type: 'eu_vat', value: '123\u0000', country: 'IE' },
      'Tax ID must not contain control characters',
      ['value'],
    ],
    [
      { type: 'eu_vat', value: '123', country: 'IRL' },
      'Tax ID country must be an ISO 3166-1 alpha-2 country code',
      ['country'],
    ],
  ])('refuses %j with "%s"', (input, message, path) => {
    const result = taxIdSchema.safeParse(input);
    expect(messages(result)).toEqual([message]);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });

  it('refuses unknown fields', () => {
    expect(
      taxIdSchema.safeParse({ type: 'eu_vat', value: '123', country: 'IE', name: 'IE VAT' })
        .success,
    ).toBe(false);
  });
});

describe('taxIdResponseSchema', () => {
  it('carries the stored tax ID or null', () => {
    const taxId = { type: 'eu_vat', value: 'IE1234567AB', country: 'IE' };
    expect(taxIdResponseSchema.parse({ tax_id: taxId })).toEqual({ tax_id: taxId });
    expect(taxIdResponseSchema.parse({ tax_id: null })).toEqual({ tax_id: null });
    expect(storedTaxIdSchema.safeParse({ type: 'eu_vat' }).success).toBe(false);
  });
});
