import { useEffect, useId, useMemo, useRef, useState, type ComponentProps } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  billingDataChanges,
  billingDataFormValues,
  countryName,
  findTaxIdKindByName,
  hasBillingDataChanges,
  taxIdKindsForCountry,
  type BillingDataFormValues,
  type CustomerProfile,
  type TaxId,
} from '@meterline/domain';
import { Loader2, X } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/cn';
import { useUpdateCustomerMutation } from '../../../data/customer-mutation';
import { useDeleteTaxIdMutation, useSetTaxIdMutation } from '../../../data/tax-id-mutations';
import { PermissionNotice } from '../../../components/permission-notice';
import { AddressFields } from '../../../billing-forms/address-fields';
import { TaxIdTypeField } from '../../../billing-forms/tax-id-type-field';
import { billingDataFormSchema } from '../../../billing-forms/billing-data-form-schema';

const SUCCESS_MESSAGE = 'Successfully updated billing data';

/** The step of a save that failed, for the spec's toast of that step. */
class SaveStepError extends Error {
  constructor(
    readonly step: 'profile' | 'tax-id',
    cause: unknown,
  ) {
    super(messageOf(cause), { cause });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function failureToast(error: unknown): string {
  if (error instanceof SaveStepError) {
    return error.step === 'profile'
      ? `Failed to update customer profile: ${error.message}`
      : `Failed to update tax id: ${error.message}`;
  }
  return `Failed updating billing data: ${messageOf(error)}`;
}

/** The name and address of `profile`, with the tax ID fields of `tax`. */
function combine(
  profile: BillingDataFormValues,
  tax: BillingDataFormValues,
): BillingDataFormValues {
  return {
    ...profile,
    tax_id_name: tax.tax_id_name,
    tax_id_type: tax.tax_id_type,
    tax_id_value: tax.tax_id_value,
  };
}

/**
 * The Billing Address & Tax ID form of spec sections 4 and 5. Save sends only what changed: the
 * profile first (PUT /customer), then the tax ID (PUT, or DELETE when none is chosen any more).
 */
export function BillingDataForm({
  slug,
  profile,
  taxId,
  canWrite,
}: {
  slug: string;
  profile: CustomerProfile;
  taxId: TaxId | null;
  canWrite: boolean;
}) {
  const loaded = useMemo(() => billingDataFormValues(profile, taxId), [profile, taxId]);
  // What the form shows as saved: `billingDataChanges` compares the values with it.
  const baseline = useRef(loaded);
  const form = useForm<BillingDataFormValues>({
    resolver: zodResolver(billingDataFormSchema),
    defaultValues: loaded,
  });
  const { errors, isDirty } = form.formState;
  // True from the first request to the last: validation alone never disables the fields, so the
  // first invalid one can take the focus.
  const [saving, setSaving] = useState(false);
  const updateCustomer = useUpdateCustomerMutation(slug);
  const setTaxId = useSetTaxIdMutation(slug);
  const deleteTaxId = useDeleteTaxIdMutation(slug);

  const resetTo = (values: BillingDataFormValues, options?: { keepValues: boolean }) => {
    baseline.current = values;
    form.reset(values, options);
  };

  // Newer data from the server (a refetch) replaces the form while nothing is being edited.
  useEffect(() => {
    if (form.formState.isDirty) return;
    baseline.current = loaded;
    form.reset(loaded);
  }, [form, loaded]);

  const country = useWatch({ control: form.control, name: 'country' });
  const taxIdName = useWatch({ control: form.control, name: 'tax_id_name' });
  const taxIdValue = useWatch({ control: form.control, name: 'tax_id_value' });
  const kinds = useMemo(() => taxIdKindsForCountry(country), [country]);
  const kind = findTaxIdKindByName(taxIdName);

  const save = async (values: BillingDataFormValues) => {
    if (!canWrite) return;
    const before = baseline.current;
    const changes = billingDataChanges(before, values);
    if (!hasBillingDataChanges(changes)) {
      // Only blanks changed: there is nothing to send.
      resetTo(before);
      return;
    }
    let saved = before;
    setSaving(true);
    try {
      if (changes.profile) {
        const body = changes.profile;
        const stored = await updateCustomer
          .mutateAsync(body)
          .catch((error: unknown) => Promise.reject(new SaveStepError('profile', error)));
        saved = combine(billingDataFormValues(stored, null), before);
      }
      if (changes.taxId) {
        const change = changes.taxId;
        const stored = await (
          change.action === 'set' ? setTaxId.mutateAsync(change.taxId) : deleteTaxId.mutateAsync()
        ).catch((error: unknown) => Promise.reject(new SaveStepError('tax-id', error)));
        saved = combine(saved, billingDataFormValues(null, stored));
      }
    } catch (error) {
      toast.error(failureToast(error));
      // What did get saved is the new baseline; the rest stays as typed, ready to retry.
      if (saved !== before) resetTo(saved, { keepValues: true });
      return;
    } finally {
      setSaving(false);
    }
    toast.success(SUCCESS_MESSAGE);
    resetTo(saved);
  };

  /** The clear button's action: no tax ID kind, type or value (a save then deletes the tax ID). */
  const clearTaxIdFields = () => {
    const options = { shouldDirty: true };
    form.setValue('tax_id_name', '', options);
    form.setValue('tax_id_type', '', options);
    form.setValue('tax_id_value', '', options);
    form.clearErrors(['tax_id_name', 'tax_id_value']);
  };

  const busy = saving;
  const canSubmit = canWrite && isDirty && !busy;
  const noticeId = useId();
  const countryLabel = country ? (countryName(country) ?? country) : '';

  return (
    <form
      noValidate
      onSubmit={(event) => void form.handleSubmit(save)(event)}
      aria-busy={busy || undefined}
    >
      {canWrite ? null : (
        <div id={noticeId} className="mb-5">
          <PermissionNotice action="manage this organization's billing address" />
        </div>
      )}
      <fieldset
        disabled={!canWrite || busy}
        aria-describedby={canWrite ? undefined : noticeId}
        className="min-w-0 space-y-6"
      >
        <legend className="sr-only">Billing address and tax ID</legend>
        <div className="grid gap-x-4 gap-y-4 sm:grid-cols-2">
          <AddressFields
            register={(name) => form.register(name)}
            errors={errors}
            nameHint="The company or person the invoices are addressed to."
            nameAutoComplete="billing organization"
            onCountryChange={(next) => {
              // Tax ID kinds belong to a country: one the new country does not offer goes.
              const offered = taxIdKindsForCountry(next);
              const chosen = form.getValues('tax_id_name');
              if (chosen && !offered.some((option) => option.name === chosen)) {
                clearTaxIdFields();
              }
            }}
          />
        </div>

        <div className="border-t pt-5">
          <h3 className="text-sm font-semibold">Tax ID</h3>
          <p className="mt-0.5 text-muted-foreground">
            Printed on invoices. The types offered depend on the country of the address.
          </p>
          <div className="mt-4 grid gap-x-4 gap-y-4 sm:grid-cols-2">
            <TaxIdTypeField
              error={errors.tax_id_name?.message}
              country={country}
              kinds={kinds}
              noKindsHint={`There are no tax ID types for ${countryLabel}.`}
              registration={form.register('tax_id_name', {
                onChange: (event: { target: { value: string } }) => {
                  // Choosing a kind resets the value: formats differ from kind to kind.
                  const chosen = findTaxIdKindByName(event.target.value);
                  const options = { shouldDirty: true, shouldValidate: false };
                  form.setValue('tax_id_type', chosen?.type ?? '', options);
                  form.setValue('tax_id_value', '', options);
                  form.clearErrors('tax_id_value');
                },
              })}
            />
            <FormField
              label="Tax ID"
              error={errors.tax_id_value?.message}
              hint={
                canWrite && kind?.vatPrefix
                  ? `The ${kind.vatPrefix} prefix is added if missing.`
                  : undefined
              }
            >
              <TaxIdValueInput
                placeholder={kind ? kind.placeholder : 'Choose a tax ID type first'}
                disabled={!kind}
                canClear={canWrite && Boolean(taxIdName || taxIdValue)}
                onClear={() => {
                  clearTaxIdFields();
                  // The button goes away with the value: focus moves to the type, to choose anew.
                  form.setFocus('tax_id_name');
                }}
                {...form.register('tax_id_value')}
              />
            </FormField>
          </div>
        </div>
      </fieldset>

      <div className="mt-6 flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
        <Button type="button" disabled={!canSubmit} onClick={() => resetTo(loaded)}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={!canSubmit} aria-busy={busy || undefined}>
          {busy ? <Loader2 aria-hidden className="animate-spin" /> : null}
          Save
        </Button>
      </div>
    </form>
  );
}

/** The tax ID value with its clear button inside the box, at the end. */
function TaxIdValueInput({
  canClear,
  onClear,
  className,
  ...props
}: ComponentProps<'input'> & { canClear: boolean; onClear: () => void }) {
  return (
    <div className="relative">
      <Input className={cn(canClear && 'pr-9', className)} {...props} />
      {canClear ? (
        <button
          type="button"
          onClick={onClear}
          aria-label="Clear tax ID"
          title="Clear tax ID"
          className="absolute top-1/2 right-1.5 inline-flex size-6 -translate-y-1/2 items-center justify-center rounded text-muted-foreground transition-colors hover:bg-muted hover:text-foreground disabled:pointer-events-none disabled:opacity-50"
        >
          <X aria-hidden className="size-4" />
        </button>
      ) : null}
    </div>
  );
}
