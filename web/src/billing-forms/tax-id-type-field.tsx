import type { TaxIdKind } from '@meterline/domain';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField } from '../components/ui/form-field';
import { NativeSelect } from '../components/ui/native-select';

/**
 * The tax ID type select of both billing forms (the address form and the add-card dialog): the kinds the
 * address's country offers, or why there are none. What choosing a kind resets is the form's own business,
 * in `registration`'s onChange.
 */
export function TaxIdTypeField({
  registration,
  error,
  country,
  kinds,
  noKindsHint,
}: {
  registration: UseFormRegisterReturn;
  error: string | undefined;
  country: string | undefined;
  kinds: readonly TaxIdKind[];
  noKindsHint: string;
}) {
  return (
    <FormField
      label="Tax ID type"
      error={error}
      hint={!country ? 'Choose a country first.' : kinds.length === 0 ? noKindsHint : undefined}
    >
      <NativeSelect {...registration}>
        <option value="">None</option>
        {kinds.map((option) => (
          <option key={option.name} value={option.name}>
            {option.name}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}
