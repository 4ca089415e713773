import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
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

/**
 * A trimmed string of at least `min` characters. A missing or blank field gets `message`; one typed
 * but too short says so ("Address line 1 must be at least 3 characters"), unless `short` gives the
 * spec's own words for it.
 */
function requiredText(
  message: string,
  min: number,
  label: string,
  max = TEXT_MAX,
  short = `${label} must be at least ${min} characters`,
) {
  return z
    .string({ error: message })
    .check(z.trim())
    .check(z.minLength(1, { error: message, abort: true }))
    .check(z.minLength(min, { error: short, abort: true }))
    .check(z.maxLength(max, tooLong(label, max)))
    .check(z.regex(PLAIN_TEXT, controlCharactersMessage(label)));
}

function optionalText(label: string) {
  return z.optional(
    z
      .string()
      .check(z.trim())
      .check(z.maxLength(TEXT_MAX, tooLong(label, TEXT_MAX)))
      .check(z.regex(PLAIN_TEXT, controlCharactersMessage(label))),
  );
}

/** An ISO 3166-1 alpha-2 code, trimmed and upper-cased. */
export const countryCodeSchema = documented(
  z
    .string({ error: COUNTRY_MESSAGE })
    .check(z.trim())
    .check(z.toUpperCase())
    .check(z.minLength(1, { error: COUNTRY_MESSAGE, abort: true }))
    .check(
      z.maxLength(2, { error: (issue) => unknownCountryMessage(String(issue.input)), abort: true }),
    )
    .check(
      z.regex(/^[A-Z]{2}$/, {
        error: (issue) => unknownCountryMessage(String(issue.input)),
        abort: true,
      }),
    )
    .check(
      z.refine(isKnownCountry, { error: (issue) => unknownCountryMessage(String(issue.input)) }),
    ),
  { description: 'ISO 3166-1 alpha-2 country code, e.g. IE' },
);

export const customerAddressSchema = documented(
  z.strictObject({
    line1: requiredText(LINE1_MESSAGE, 3, 'Address line 1'),
    line2: optionalText('Address line 2'),
    city: requiredText(CITY_MESSAGE, 2, 'City'),
    state: optionalText('State'),
    postal_code: requiredText(POSTAL_CODE_MESSAGE, 1, 'Postal code', POSTAL_CODE_MAX),
    country: countryCodeSchema,
  }),
  { id: 'CustomerAddress' },
);
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
export const customerUpdateSchema = documented(
  z.strictObject({
    billing_name: requiredText(BILLING_NAME_MESSAGE, 3, 'Name', TEXT_MAX, BILLING_NAME_MESSAGE),
    address: documented(
      z._default(z.pipe(z.transform(emptyAddressToNull), z.nullable(customerAddressSchema)), null),
      {
        description:
          'The whole address, or none: absent, null, {} and all-blank fields mean no address',
      },
    ),
  }),
  { id: 'CustomerUpdate' },
);
export type CustomerUpdate = z.output<typeof customerUpdateSchema>;

export const customerProfileSchema = documented(
  z.object({
    billing_name: z.nullable(z.string()),
    address: z.nullable(customerAddressSchema),
    /** The organization's additional billing email recipients: one list, kept on the organization. */
    additional_emails: z.array(z.string()),
    email: documented(z.nullable(z.string()), { description: "The organization's billing email" }),
    balance: documented(z.number().check(z.int()), {
      description:
        "US cents, as the subscription's customer_balance: positive is credit owed to the customer",
    }),
    billing_via_partner: z.boolean(),
  }),
  { id: 'CustomerProfile' },
);
export type CustomerProfile = z.output<typeof customerProfileSchema>;

/** PUT /tax-ids: a kind of the catalogue that the country offers, and its value. */
export const taxIdSchema = documented(
  z
    .strictObject({
      type: documented(
        z
          .string({ error: TAX_ID_TYPE_MESSAGE })
          .check(z.trim())
          .check(z.minLength(1, { error: TAX_ID_TYPE_MESSAGE, abort: true }))
          .check(
            z.maxLength(TAX_ID_TYPE_MAX, {
              error: tooLong('Tax ID type', TAX_ID_TYPE_MAX),
              abort: true,
            }),
          )
          .check(
            z.regex(/^[a-z_]+$/, {
              error: 'Tax ID type is not a type of the catalogue',
              abort: true,
            }),
          ),
        { description: 'A type of the tax ID catalogue, e.g. eu_vat' },
      ),
      value: requiredText(
        TAX_ID_VALUE_MESSAGE,
        2,
        'Tax ID',
        TAX_ID_VALUE_MAX,
        TAX_ID_VALUE_MESSAGE,
      ),
      country: documented(
        z
          .string({ error: TAX_ID_COUNTRY_MESSAGE })
          .check(z.trim())
          .check(z.toUpperCase())
          .check(z.minLength(1, { error: TAX_ID_COUNTRY_MESSAGE, abort: true }))
          .check(
            z.maxLength(2, {
              error: 'Tax ID country must be an ISO 3166-1 alpha-2 country code',
              abort: true,
            }),
          )
          .check(
            z.regex(/^[A-Z]{2}$/, {
              error: 'Tax ID country must be an ISO 3166-1 alpha-2 country code',
              abort: true,
            }),
          ),
        { description: 'The ISO 3166-1 alpha-2 country the kind belongs to, e.g. IE' },
      ),
    })
    .check(
      z.superRefine((taxId, ctx) => {
        const problem = taxIdKindProblem(taxId.type, taxId.country);
        if (problem) ctx.addIssue({ code: 'custom', path: ['type'], message: problem });
      }),
    ),
  { id: 'TaxIdUpdate' },
);
export type TaxIdUpdate = z.output<typeof taxIdSchema>;

/** A stored tax ID, its value as saved (with its VAT prefix). */
export const storedTaxIdSchema = documented(
  z.object({ type: z.string(), value: z.string(), country: z.string() }),
  { id: 'TaxId' },
);
export type TaxId = z.output<typeof storedTaxIdSchema>;

export const taxIdResponseSchema = documented(z.object({ tax_id: z.nullable(storedTaxIdSchema) }), {
  id: 'TaxIdResponse',
});
export type TaxIdResponse = z.output<typeof taxIdResponseSchema>;
