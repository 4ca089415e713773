import { useEffect, useId, useMemo, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import type { SpendAlertState } from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from '../../lib/toast';
import { PermissionNotice } from '../../components/permission-notice';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import {
  useDeleteSpendAlertMutation,
  useSetSpendAlertMutation,
} from '../../data/spend-alert-mutations';
import {
  formValuesOf,
  spendAlertFormSchema,
  type SpendAlertFormInput,
  type SpendAlertFormOutput,
} from './spend-alert-form-schema';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The budget and its thresholds, saved with PUT /billing/spend-alert; "Remove budget" deletes it.
 * Owners and administrators change them; every other role sees them read only, with the spec's notice.
 */
export function SpendAlertsForm({
  orgSlug,
  state,
  canWrite,
}: {
  orgSlug: string;
  state: SpendAlertState;
  canWrite: boolean;
}) {
  // Only the settings matter to the form, not the figures refetched with them.
  const thresholdsText = state.thresholds.join(', ');
  const loaded = useMemo(
    () => ({
      budget: state.budget === null ? '' : String(state.budget),
      thresholds: thresholdsText,
    }),
    [state.budget, thresholdsText],
  );
  const form = useForm<SpendAlertFormInput, unknown, SpendAlertFormOutput>({
    resolver: zodResolver(spendAlertFormSchema),
    defaultValues: loaded,
  });
  const { errors, isDirty } = form.formState;
  const [busy, setBusy] = useState(false);
  const save = useSetSpendAlertMutation(orgSlug);
  const remove = useDeleteSpendAlertMutation(orgSlug);
  const noticeId = useId();

  useEffect(() => {
    if (form.formState.isDirty) return;
    form.reset(loaded);
  }, [form, loaded]);

  const onSubmit = form.handleSubmit(async (values) => {
    setBusy(true);
    try {
      const saved = await save.mutateAsync(values);
      form.reset(formValuesOf(saved));
      toast.success('Spend alert saved');
    } catch (error) {
      toast.error(`Failed to save the spend alert: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  });

  const onRemove = async () => {
    setBusy(true);
    try {
      await remove.mutateAsync();
      toast.success('Budget removed: no more spend alerts');
    } catch (error) {
      toast.error(`Failed to remove the budget: ${errorText(error)}`);
    } finally {
      setBusy(false);
    }
  };

  const hasBudget = state.budget !== null;
  return (
    <form noValidate onSubmit={onSubmit} aria-busy={busy || undefined} aria-label="Spend alert">
      {canWrite ? null : (
        <div id={noticeId} className="mb-5">
          <PermissionNotice action="update spend alerts" />
        </div>
      )}
      <fieldset
        disabled={!canWrite || busy}
        aria-describedby={canWrite ? undefined : noticeId}
        className="grid min-w-0 gap-4 sm:grid-cols-2"
      >
        <legend className="sr-only">Monthly budget and alert thresholds</legend>
        <FormField
          label="Monthly budget (USD)"
          hint="Whole US dollars, from $1 to $1,000,000."
          error={errors.budget?.message}
        >
          <Input
            inputMode="numeric"
            autoComplete="off"
            placeholder="200"
            {...form.register('budget')}
          />
        </FormField>
        <FormField
          label="Alert thresholds (%)"
          hint="Up to 10 percentages of the budget, separated by commas."
          error={errors.thresholds?.message}
        >
          <Input
            inputMode="numeric"
            autoComplete="off"
            placeholder="50, 75, 90, 100"
            {...form.register('thresholds')}
          />
        </FormField>
      </fieldset>
      {canWrite ? (
        <div className="mt-6 flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:items-center">
          {hasBudget ? (
            <Button
              type="button"
              disabled={busy}
              onClick={() => void onRemove()}
              variant="destructive-secondary"
              className="sm:mr-auto"
            >
              Remove budget
            </Button>
          ) : null}
          <div className="flex flex-col-reverse gap-2 sm:ml-auto sm:flex-row">
            <Button type="button" disabled={!isDirty || busy} onClick={() => form.reset(loaded)}>
              Cancel
            </Button>
            <Button
              type="submit"
              variant="primary"
              disabled={!isDirty || busy}
              aria-busy={busy || undefined}
            >
              {busy ? <Loader2 aria-hidden className="animate-spin" /> : null}
              {hasBudget ? 'Save' : 'Set budget'}
            </Button>
          </div>
        </div>
      ) : null}
    </form>
  );
}
