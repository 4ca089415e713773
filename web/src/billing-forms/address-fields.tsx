import { COUNTRIES } from '@meterline/domain';
import type { ChangeEvent } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '../components/ui/form-field';
import { Input } from '../components/ui/input';
import { NativeSelect } from '../components/ui/native-select';

export type AddressFieldName =
  'billing_name' | 'line1' | 'line2' | 'city' | 'state' | 'postal_code' | 'country';

/**
 * The billing name and address fields with their accessible names, shared by the Billing Address form and
 * the add-card dialog. Each form keeps the values at its own paths, so it hands over its registration.
 * Rendered inside the caller's two-column grid.
 */
export function AddressFields({
  register,
  errors,
  nameHint,
  nameAutoComplete,
  wideLines = false,
  onCountryChange,
}: {
  register: (name: AddressFieldName) => UseFormRegisterReturn;
  errors: Partial<Record<AddressFieldName, { message?: string } | undefined>>;
  nameHint: string;
  nameAutoComplete: string;
  /** Both address lines across the whole width (the narrow dialog). */
  wideLines?: boolean;
  /** After the country changed: tax ID kinds belong to a country. */
  onCountryChange: (country: string) => void;
}) {
  const country = register('country');
  const lineClass = wideLines ? 'sm:col-span-2' : undefined;
  return (
    <>
      <FormField
        label="Name"
        hint={nameHint}
        error={errors.billing_name?.message}
        className="sm:col-span-2"
      >
        <Input autoComplete={nameAutoComplete} {...register('billing_name')} />
      </FormField>
      <FormField label="Address line 1" error={errors.line1?.message} className={lineClass}>
        <Input autoComplete="billing address-line1" {...register('line1')} />
      </FormField>
      <FormField
        label="Address line 2"
        optional
        error={errors.line2?.message}
        className={lineClass}
      >
        <Input autoComplete="billing address-line2" {...register('line2')} />
      </FormField>
      <FormField label="City" error={errors.city?.message}>
        <Input autoComplete="billing address-level2" {...register('city')} />
      </FormField>
      <FormField label="State" optional error={errors.state?.message}>
        <Input autoComplete="billing address-level1" {...register('state')} />
      </FormField>
      <FormField label="Postal code" error={errors.postal_code?.message}>
        <Input autoComplete="billing postal-code" {...register('postal_code')} />
      </FormField>
      <FormField label="Country" error={errors.country?.message}>
        <NativeSelect
          autoComplete="billing country"
          {...country}
          onChange={async (event: ChangeEvent<HTMLSelectElement>) => {
            await country.onChange(event);
            onCountryChange(event.target.value);
          }}
        >
          <option value="">Select a country</option>
          {COUNTRIES.map((option) => (
            <option key={option.code} value={option.code}>
              {option.name}
            </option>
          ))}
        </NativeSelect>
      </FormField>
    </>
  );
}
