import { z } from 'zod';
import { controlCharactersMessage, PLAIN_TEXT } from '../schemas/common.ts';
import { isKnownCountry } from './countries.ts';
import { taxIdKindProblem } from './tax-id-kinds.ts';

// The spec's section 5 messages, word for word.
export const BILLING_NAME_MESSAGE = 'Name must be at least 3 letters long';
export const LINE1_MESSAGE = 'Address line 1 is required';
export const CITY_MESSAGE = 'City is required';
export const POSTAL_CODE_MESSAGE = 'Postal code is required';
export const COUNTRY_MESSAGE = 'Country is required';
export const TAX_ID_VALUE_MESSAGE = 'Tax ID needs to be set.';
export const TAX_ID_TYPE_MESSAGE = 'Tax ID type is required';
export const TAX_ID_COUNTRY_MESSAGE = 'Tax ID country is required';

export function unknownCountryMessage(code: string): string {
  return `Country ${code} is not an ISO 3166-1 alpha-2 country code`;
}

const TEXT_MAX = 200;
const POSTAL_CODE_MAX = 20;
const TAX_ID_VALUE_MAX = 64;
/** Longer than any kind of the catalogue (`eu_oss_vat`, `us_ein`…). */
const TAX_ID_TYPE_MAX = 32;

function tooLong(label: string, max: number): string {
  return `${label} must be at most ${max} characters`;
}

/** A trimmed string of at least `min` characters; a missing field gets the same message as a short one. */
function requiredText(message: string, min: number, label: string, max = TEXT_MAX) {
  return z
    .string({ error: message })
    .trim()
    .min(min, { error: message, abort: true })
    .max(max, tooLong(label, max))
    .regex(PLAIN_TEXT, controlCharactersMessage(label));
}

function optionalText(label: string) {
  return z
    .string()
    .trim()
    .max(TEXT_MAX, tooLong(label, TEXT_MAX))
    .regex(PLAIN_TEXT, controlCharactersMessage(label))
    .optional();
}

/** An ISO 3166-1 alpha-2 code, trimmed and upper-cased. */
export const countryCodeSchema = z
  .string({ error: COUNTRY_MESSAGE })
  .trim()
  .toUpperCase()
  .min(1, { error: COUNTRY_MESSAGE, abort: true })
  .max(2, { error: (issue) => unknownCountryMessage(String(issue.input)), abort: true })
  .regex(/^[A-Z]{2}$/, {
    error: (issue) => unknownCountryMessage(String(issue.input)),
    abort: true,
  })
  .refine(isKnownCountry, { error: (issue) => unknownCountryMessage(String(issue.input)) })
  .describe('ISO 3166-1 alpha-2 country code, e.g. IE');

export const customerAddressSchema = z
  .object({
    line1: requiredText(LINE1_MESSAGE, 3, 'Address line 1'),
    line2: optionalText('Address line 2'),
    city: requiredText(CITY_MESSAGE, 2, 'City'),
    state: optionalText('State'),
    postal_code: requiredText(POSTAL_CODE_MESSAGE, 1, 'Postal code', POSTAL_CODE_MAX),
    country: countryCodeSchema,
  })
  .strict()
  .meta({ id: 'CustomerAddress' });
export type CustomerAddress = z.output<typeof customerAddressSchema>;

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && !value.trim());
}

/** "If no line1 is given, the address is sent as empty": null, {} or all-blank fields mean no address. */
function emptyAddressToNull(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object' && !Array.isArray(value) && Object.values(value).every(isBlank)) {
    return null;
  }
  return value;
}

/**
 * PUT (and PATCH) /customer: the whole profile; the address is all there or empty. A body without an
 * address has none (the default), so the document says it is optional, as the server has it.
 */
export const customerUpdateSchema = z
  .object({
    billing_name: requiredText(BILLING_NAME_MESSAGE, 3, 'Name'),
    address: z
      .preprocess(emptyAddressToNull, customerAddressSchema.nullable())
      .default(null)
      .describe(
        'The whole address, or none: absent, null, {} and all-blank fields mean no address',
      ),
  })
  .strict()
  .meta({ id: 'CustomerUpdate' });
export type CustomerUpdate = z.output<typeof customerUpdateSchema>;

export const customerProfileSchema = z
  .object({
    billing_name: z.string().nullable(),
    address: customerAddressSchema.nullable(),
    /** The organization's additional billing email recipients: one list, kept on the organization. */
    additional_emails: z.array(z.string()),
    email: z.string().nullable().describe("The organization's billing email"),
    balance: z
      .number()
      .int()
      .describe(
        "US cents, as the subscription's customer_balance: positive is credit owed to the customer",
      ),
    billing_via_partner: z.boolean(),
  })
  .meta({ id: 'CustomerProfile' });
export type CustomerProfile = z.output<typeof customerProfileSchema>;

/** PUT /tax-ids: a kind of the catalogue that the country offers, and its value. */
export const taxIdSchema = z
  .object({
    type: z
      .string({ error: TAX_ID_TYPE_MESSAGE })
      .trim()
      .min(1, { error: TAX_ID_TYPE_MESSAGE, abort: true })
      .max(TAX_ID_TYPE_MAX, { error: tooLong('Tax ID type', TAX_ID_TYPE_MAX), abort: true })
      .regex(/^[a-z_]+$/, { error: 'Tax ID type is not a type of the catalogue', abort: true })
      .describe('A type of the tax ID catalogue, e.g. eu_vat'),
    value: requiredText(TAX_ID_VALUE_MESSAGE, 2, 'Tax ID', TAX_ID_VALUE_MAX),
    country: z
      .string({ error: TAX_ID_COUNTRY_MESSAGE })
      .trim()
      .toUpperCase()
      .min(1, { error: TAX_ID_COUNTRY_MESSAGE, abort: true })
      .max(2, { error: 'Tax ID country must be an ISO 3166-1 alpha-2 country code', abort: true })
      .regex(/^[A-Z]{2}$/, {
        error: 'Tax ID country must be an ISO 3166-1 alpha-2 country code',
        abort: true,
      })
      .describe('The ISO 3166-1 alpha-2 country the kind belongs to, e.g. IE'),
  })
  .strict()
  .superRefine((taxId, ctx) => {
    const problem = taxIdKindProblem(taxId.type, taxId.country);
    if (problem) ctx.addIssue({ code: 'custom', path: ['type'], message: problem });
  })
  .meta({ id: 'TaxIdUpdate' });
export type TaxIdUpdate = z.output<typeof taxIdSchema>;

/** A stored tax ID, its value as saved (with its VAT prefix). */
export const storedTaxIdSchema = z
  .object({ type: z.string(), value: z.string(), country: z.string() })
  .meta({ id: 'TaxId' });
export type TaxId = z.output<typeof storedTaxIdSchema>;

export const taxIdResponseSchema = z
  .object({ tax_id: storedTaxIdSchema.nullable() })
  .meta({ id: 'TaxIdResponse' });
export type TaxIdResponse = z.output<typeof taxIdResponseSchema>;
