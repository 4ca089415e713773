import { useId, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  planName,
  UPGRADE_SURVEY_TEXT_MAX,
  upgradeSurveyFormSchema,
  upgradeSurveyReasons,
  type PlanId,
  type UpgradeSurveyFormInput,
  type UpgradeSurveyFormOutput,
} from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { useUpgradeFeedbackMutation } from '../../data/upgrade-feedback-mutation';
import { CheckboxField } from '../../payments/ui/checkbox-field';
import { Dialog, DialogBody, DialogFooter } from '../../payments/ui/dialog';

export const SURVEY_THANKS = 'Thank you for your feedback';

export interface UpgradeSurveyProps {
  orgSlug: string;
  /** The upgrade that just went through; null when the survey is closed. */
  change: { from: PlanId; to: PlanId } | null;
  onClose: () => void;
}

/**
 * The upgrade survey (spec §5): why the organization upgraded, one reason or more, and anything else
 * in its own words. Sent to POST /platform/feedback/upgrade; it never affects the change itself.
 */
export function UpgradeSurveyDialog({ orgSlug, change, onClose }: UpgradeSurveyProps) {
  // The last change stays while the dialog animates out.
  const [shown, setShown] = useState<{ from: PlanId; to: PlanId }>(
    change ?? { from: 'free', to: 'pro' },
  );
  if (change && change !== shown) setShown(change);
  return (
    <Dialog
      open={change !== null}
      onOpenChange={(open) => !open && onClose()}
      title={`Welcome to the ${planName(shown.to)} plan`}
      description="What made you upgrade? Your answer helps us decide what to build next."
    >
      {change ? <SurveyForm orgSlug={orgSlug} change={change} onClose={onClose} /> : null}
    </Dialog>
  );
}

function SurveyForm({
  orgSlug,
  change,
  onClose,
}: {
  orgSlug: string;
  change: { from: PlanId; to: PlanId };
  onClose: () => void;
}) {
  const reasons = upgradeSurveyReasons(change.from, change.to);
  const submit = useUpgradeFeedbackMutation();
  const errorId = useId();
  const form = useForm<UpgradeSurveyFormInput, unknown, UpgradeSurveyFormOutput>({
    resolver: zodResolver(upgradeSurveyFormSchema),
    defaultValues: { reasons: [], additionalFeedback: '' },
  });
  const reasonsError = form.formState.errors.reasons?.message;

  const onValid = async (values: UpgradeSurveyFormOutput) => {
    try {
      await submit.mutateAsync({
        orgSlug,
        prevPlan: change.from,
        currentPlan: change.to,
        reasons: values.reasons,
        additionalFeedback: values.additionalFeedback,
      });
      toast.success(SURVEY_THANKS);
      onClose();
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Something went wrong.';
      toast.error(`Failed to submit upgrade survey: ${message}`);
    }
  };

  const busy = submit.isPending;
  return (
    <form
      noValidate
      aria-busy={busy || undefined}
      className="flex min-h-0 flex-1 flex-col"
      onSubmit={(event) => void form.handleSubmit(onValid)(event)}
    >
      <DialogBody className="space-y-5">
        <fieldset
          className="min-w-0 space-y-3"
          disabled={busy}
          aria-describedby={reasonsError ? errorId : undefined}
          aria-invalid={reasonsError ? true : undefined}
        >
          <legend className="mb-3 text-sm font-semibold">
            Why did you upgrade? Choose all that apply.
          </legend>
          {reasons.map((reason) => (
            <CheckboxField
              key={reason}
              label={reason}
              value={reason}
              {...form.register('reasons')}
            />
          ))}
          <p id={errorId} aria-live="polite" className="text-sm text-destructive">
            {reasonsError}
          </p>
        </fieldset>
        <FormField
          label="Anything else you would like to tell us?"
          optional
          error={form.formState.errors.additionalFeedback?.message}
        >
          <textarea
            rows={3}
            maxLength={UPGRADE_SURVEY_TEXT_MAX}
            disabled={busy}
            className="w-full min-w-0 rounded-md border border-input bg-card px-3 py-2 text-sm text-foreground shadow-card transition-colors focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive"
            {...form.register('additionalFeedback')}
          />
        </FormField>
      </DialogBody>
      <DialogFooter>
        <Button disabled={busy} onClick={onClose}>
          Skip
        </Button>
        <Button type="submit" variant="primary" aria-disabled={busy || undefined}>
          {busy ? <Loader2 aria-hidden className="animate-spin" /> : null}
          Submit feedback
        </Button>
      </DialogFooter>
    </form>
  );
}
