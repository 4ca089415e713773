import {
  customerUpdateSchema,
  findTaxIdKindByName,
  taxIdSchema,
  type BillingDataFormValues,
} from '@meterline/domain';
import { z } from 'zod/mini';

/** Where an issue of the domain's request schemas shows in the flat form. */
const PROFILE_FIELDS: Record<string, keyof BillingDataFormValues> = {
  billing_name: 'billing_name',
  address: 'line1',
  'address.line1': 'line1',
  'address.line2': 'line2',
  'address.city': 'city',
  'address.state': 'state',
  'address.postal_code': 'postal_code',
  'address.country': 'country',
};

const TAX_ID_FIELDS: Record<string, keyof BillingDataFormValues> = {
  // The kind is chosen by name in the form; the type follows from it.
  type: 'tax_id_name',
  country: 'tax_id_name',
  value: 'tax_id_value',
};

/**
 * The Billing Address & Tax ID form, checked by the very schemas the API validates its requests
 * with: the profile as `customerUpdateSchema` (an all-blank address is no address; otherwise every
 * rule of the address applies), and, once a tax ID kind is chosen, the tax ID as `taxIdSchema`.
 * The values pass through unchanged: `billingDataChanges` trims and prefixes them for sending.
 */
export const billingDataFormSchema = z
  .object({
    billing_name: z.string(),
    line1: z.string(),
    line2: z.string(),
    city: z.string(),
    state: z.string(),
    postal_code: z.string(),
    country: z.string(),
    tax_id_name: z.string(),
    tax_id_type: z.string(),
    tax_id_value: z.string(),
  })
  .check(
    z.superRefine((values, ctx) => {
      const profile = customerUpdateSchema.safeParse({
        billing_name: values.billing_name,
        address: {
          line1: values.line1,
          line2: values.line2,
          city: values.city,
          state: values.state,
          postal_code: values.postal_code,
          country: values.country,
        },
      });
      for (const issue of profile.error?.issues ?? []) {
        const field = PROFILE_FIELDS[issue.path.join('.')] ?? 'billing_name';
        ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
      }

      if (!values.tax_id_name.trim()) return;
      const kind = findTaxIdKindByName(values.tax_id_name);
      const taxId = taxIdSchema.safeParse({
        type: values.tax_id_type,
        value: values.tax_id_value,
        country: kind?.countryIso2 ?? values.country,
      });
      for (const issue of taxId.error?.issues ?? []) {
        const field = TAX_ID_FIELDS[String(issue.path[0])] ?? 'tax_id_value';
        ctx.addIssue({ code: 'custom', path: [field], message: issue.message });
      }
    }),
  ) satisfies z.ZodMiniType<BillingDataFormValues, BillingDataFormValues>;
