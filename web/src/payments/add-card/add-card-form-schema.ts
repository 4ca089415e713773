import {
  billingDataChanges,
  hasBillingDataChanges,
  taxIdKindsForCountry,
  type BillingDataFormValues,
} from '@meterline/domain';
import { z } from 'zod/mini';
import { billingDataFormSchema } from '../../billing-forms/billing-data-form-schema';

/** The add-card form besides the card itself (which stays with the payment port's fields). */
export interface AddCardFormValues {
  setAsDefault: boolean;
  updateBilling: boolean;
  /** "I’m purchasing as a business": the tax ID is asked for and applied only then. */
  business: boolean;
  billing: BillingDataFormValues;
}

export const TAX_ID_REQUIRED_MESSAGE = 'Tax ID needs to be set.';

/** The billing values a save compares with what was loaded: a personal purchase keeps the tax ID. */
export function billingValuesToApply(
  values: AddCardFormValues,
  loaded: BillingDataFormValues,
): BillingDataFormValues {
  if (values.business) return values.billing;
  return {
    ...values.billing,
    tax_id_name: loaded.tax_id_name,
    tax_id_type: loaded.tax_id_type,
    tax_id_value: loaded.tax_id_value,
  };
}

const blankTaxId = (billing: BillingDataFormValues): BillingDataFormValues => ({
  ...billing,
  tax_id_name: '',
  tax_id_type: '',
  tax_id_value: '',
});

/**
 * Whether the billing fields were left as loaded: no change to apply, and the business toggle where
 * the loaded tax ID put it. Spec §4 updates the address and tax ID only *if changed*: untouched empty
 * fields (an organization with no address on file) are no change, so they are not checked either.
 */
export function billingUntouched(
  values: AddCardFormValues,
  loaded: BillingDataFormValues,
): boolean {
  if (values.business !== Boolean(loaded.tax_id_type)) return false;
  return !hasBillingDataChanges(billingDataChanges(loaded, billingValuesToApply(values, loaded)));
}

/**
 * The address and tax ID are checked only when they are to be updated and were changed from what was
 * loaded, by the Billing Address form's own rules (spec §5), plus the card form's: purchasing as a
 * business in a country with tax ID kinds needs a tax ID before submit.
 */
export const addCardFormSchemaFor = (loaded: BillingDataFormValues) =>
  z
    .object({
      setAsDefault: z.boolean(),
      updateBilling: z.boolean(),
      business: z.boolean(),
      billing: z.custom<BillingDataFormValues>(),
    })
    .check(
      z.superRefine((values, ctx) => {
        if (!values.updateBilling || billingUntouched(values, loaded)) return;
        const billing = values.business ? values.billing : blankTaxId(values.billing);
        const result = billingDataFormSchema.safeParse(billing);
        for (const issue of result.error?.issues ?? []) {
          ctx.addIssue({
            code: 'custom',
            path: ['billing', ...issue.path],
            message: issue.message,
          });
        }
        if (!values.business || taxIdKindsForCountry(values.billing.country).length === 0) return;
        if (!values.billing.tax_id_name.trim()) {
          ctx.addIssue({
            code: 'custom',
            path: ['billing', 'tax_id_name'],
            message: TAX_ID_REQUIRED_MESSAGE,
          });
        } else if (!values.billing.tax_id_value.trim()) {
          ctx.addIssue({
            code: 'custom',
            path: ['billing', 'tax_id_value'],
            message: TAX_ID_REQUIRED_MESSAGE,
          });
        }
      }),
    ) satisfies z.ZodMiniType<AddCardFormValues, AddCardFormValues>;
