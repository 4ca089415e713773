import { useMemo } from 'react';
import { findTaxIdKindByName, taxIdKindsForCountry } from '@meterline/domain';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { SwitchField } from '../ui/checkbox-field';
import { AddressFields } from '../../billing-forms/address-fields';
import { TaxIdTypeField } from '../../billing-forms/tax-id-type-field';
import type { AddCardFormValues } from './add-card-form-schema';

/**
 * The billing address and tax ID of the add-card flow, prefilled from GET /customer and /tax-ids.
 * The business toggle switches the name between the organization's and a person's, and shows the
 * tax ID (spec §4, "Tax ID form").
 */
export function CardBillingFields({ form }: { form: UseFormReturn<AddCardFormValues> }) {
  const { errors: allErrors } = form.formState;
  const errors = allErrors.billing ?? {};
  const business = useWatch({ control: form.control, name: 'business' });
  const country = useWatch({ control: form.control, name: 'billing.country' });
  const taxIdName = useWatch({ control: form.control, name: 'billing.tax_id_name' });
  const kinds = useMemo(() => taxIdKindsForCountry(country), [country]);
  const kind = findTaxIdKindByName(taxIdName);

  const clearTaxId = () => {
    const options = { shouldDirty: true };
    form.setValue('billing.tax_id_name', '', options);
    form.setValue('billing.tax_id_type', '', options);
    form.setValue('billing.tax_id_value', '', options);
  };

  return (
    <div className="space-y-4">
      <SwitchField label="I’m purchasing as a business" {...form.register('business')} />
      <div className="grid gap-x-3 gap-y-3 sm:grid-cols-2">
        <AddressFields
          register={(name) => form.register(`billing.${name}`)}
          errors={errors}
          nameHint={business ? 'The organization’s legal name.' : 'Your full name.'}
          nameAutoComplete={business ? 'billing organization' : 'billing name'}
          wideLines
          onCountryChange={(next) => {
            // Tax ID kinds belong to a country: one the new country does not offer goes.
            const chosen = form.getValues('billing.tax_id_name');
            const offered = taxIdKindsForCountry(next);
            if (chosen && !offered.some((option) => option.name === chosen)) clearTaxId();
          }}
        />
        {business ? (
          <>
            <TaxIdTypeField
              error={errors.tax_id_name?.message}
              country={country}
              kinds={kinds}
              noKindsHint="There are no tax ID types for this country."
              registration={form.register('billing.tax_id_name', {
                onChange: (event: { target: { value: string } }) => {
                  // Choosing a kind resets the value: formats differ from kind to kind.
                  const chosen = findTaxIdKindByName(event.target.value);
                  const options = { shouldDirty: true };
                  form.setValue('billing.tax_id_type', chosen?.type ?? '', options);
                  form.setValue('billing.tax_id_value', '', options);
                },
              })}
            />
            <FormField
              label="Tax ID"
              error={errors.tax_id_value?.message}
              hint={
                kind?.vatPrefix ? `The ${kind.vatPrefix} prefix is added if missing.` : undefined
              }
            >
              <Input
                placeholder={kind ? kind.placeholder : 'Choose a tax ID type first'}
                disabled={!kind}
                {...form.register('billing.tax_id_value')}
              />
            </FormField>
          </>
        ) : null}
      </div>
    </div>
  );
}
