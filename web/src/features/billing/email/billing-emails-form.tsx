import { useEffect, useId, useMemo, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { organizationUpdateSchema, type Organization } from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { Controller, useForm, type FieldError } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { z } from 'zod/mini';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { TagInput } from '../../../components/ui/tag-input';
import { useUpdateOrganizationMutation } from '../../../data/organization-update-mutation';
import { PermissionNotice } from '../../../components/permission-notice';

export const NO_UPDATE_PERMISSION_MESSAGE =
  'You do not have the required permissions to update this organization';

/** The billing email fields of the organization update call, with its rules and messages. */
const billingEmailsFormSchema = z.object({
  billing_email: organizationUpdateSchema.shape.billing_email.def.innerType,
  additional_billing_emails: organizationUpdateSchema.shape.additional_billing_emails.def.innerType,
});
type BillingEmailsFormInput = z.input<typeof billingEmailsFormSchema>;
type BillingEmailsFormOutput = z.output<typeof billingEmailsFormSchema>;

function valuesOf(organization: Organization): BillingEmailsFormInput {
  return {
    billing_email: organization.billing_email ?? '',
    additional_billing_emails: [...organization.additional_billing_emails],
  };
}

/** The list's own error (e.g. too many) and each item's, in order. */
function listErrors(error: unknown): string[] {
  if (!error || typeof error !== 'object') return [];
  const messages: string[] = [];
  const own = (error as FieldError).message;
  if (own) messages.push(own);
  if (Array.isArray(error)) {
    for (const item of error as (FieldError | undefined)[]) {
      if (item?.message) messages.push(item.message);
    }
  }
  return messages;
}

/**
 * The Email Recipient form: the billing email and the additional recipients (creatable tags), saved
 * with the organization update call. Changing them needs update on organizations.
 */
export function BillingEmailsForm({
  organization,
  canUpdate,
}: {
  organization: Organization;
  canUpdate: boolean;
}) {
  const loaded = useMemo(() => valuesOf(organization), [organization]);
  const form = useForm<BillingEmailsFormInput, unknown, BillingEmailsFormOutput>({
    resolver: zodResolver(billingEmailsFormSchema),
    defaultValues: loaded,
  });
  const { errors, isDirty } = form.formState;
  // Only the request disables the form: after a failed validation the first invalid field takes focus.
  const [saving, setSaving] = useState(false);
  const update = useUpdateOrganizationMutation(organization.slug);

  // Newer organization details (a refetch) replace the form while nothing is being edited.
  useEffect(() => {
    if (form.formState.isDirty) return;
    form.reset(loaded);
  }, [form, loaded]);

  const onSubmit = form.handleSubmit(async (values) => {
    if (!canUpdate) {
      toast.error(NO_UPDATE_PERMISSION_MESSAGE);
      return;
    }
    setSaving(true);
    try {
      const updated = await update.mutateAsync({
        // The update call carries the organization's name as well (the spec's saving rule).
        name: organization.name,
        billing_email: values.billing_email,
        additional_billing_emails: values.additional_billing_emails,
      });
      toast.success('Successfully updated billing emails');
      form.reset(valuesOf(updated));
    } catch (error) {
      toast.error(
        `Failed to update billing emails: ${error instanceof Error ? error.message : String(error)}`,
      );
    } finally {
      setSaving(false);
    }
  });

  const busy = saving;
  const canSubmit = canUpdate && isDirty && !busy;
  const noticeId = useId();
  const additionalErrors = listErrors(errors.additional_billing_emails);
  const itemErrors = Array.isArray(errors.additional_billing_emails)
    ? (errors.additional_billing_emails as (FieldError | undefined)[])
    : [];

  return (
    <form noValidate onSubmit={onSubmit} aria-busy={busy || undefined}>
      {canUpdate ? null : (
        <div id={noticeId} className="mb-5">
          <PermissionNotice action="update billing emails" />
        </div>
      )}
      <fieldset
        disabled={!canUpdate || busy}
        aria-describedby={canUpdate ? undefined : noticeId}
        className="min-w-0 space-y-4"
      >
        <legend className="sr-only">Billing email recipients</legend>
        <FormField
          label="Billing email"
          hint="Invoices and billing notices are sent to this address."
          error={errors.billing_email?.message}
        >
          <Input
            type="email"
            inputMode="email"
            autoComplete="email"
            placeholder="billing@company.com"
            {...form.register('billing_email')}
          />
        </FormField>
        <Controller
          control={form.control}
          name="additional_billing_emails"
          render={({ field }) => (
            <FormField
              label="Additional emails"
              optional
              hint={
                canUpdate
                  ? 'They receive a copy of every invoice. Press Enter or type a comma after each address.'
                  : 'They receive a copy of every invoice.'
              }
              error={additionalErrors}
            >
              <TagInput
                name={field.name}
                inputRef={field.ref}
                value={field.value}
                inputMode="email"
                placeholder="finance@company.com"
                disabled={!canUpdate || busy}
                onBlur={field.onBlur}
                onChange={(next) => {
                  field.onChange(next);
                  // Each address is checked as it is added or removed, not only on submit.
                  void form.trigger('additional_billing_emails');
                }}
                isInvalid={(_tag, index) => Boolean(itemErrors[index])}
                removeLabel={(tag) => `Remove ${tag}`}
              />
            </FormField>
          )}
        />
      </fieldset>

      <div className="mt-6 flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
        <Button type="button" disabled={!canSubmit} onClick={() => form.reset(loaded)}>
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
