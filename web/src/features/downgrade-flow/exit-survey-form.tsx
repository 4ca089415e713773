import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import {
  exitSurveyAnswer,
  exitSurveyMessageLabel,
  shuffledExitSurveyReasons,
  type ExitSurveyAnswer,
} from '@meterline/domain';
import { cn } from '../../lib/cn';

const TEXTAREA = cn(
  'block min-h-24 w-full min-w-0 rounded-md border border-input bg-card px-3 py-2 text-sm text-foreground shadow-card transition-colors',
  'placeholder:text-muted-foreground/70 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30',
  'disabled:cursor-not-allowed disabled:opacity-50',
);

/**
 * The exit survey (spec §5): the reasons in a random order fixed for the life of the form, "None of the
 * above" last, one required; a message whose label follows the chosen reason, optional. `footer` is
 * rendered inside the form, so its submit button submits it.
 */
export function ExitSurveyForm({
  random,
  disabled,
  onSubmit,
  children,
}: {
  random?: () => number;
  disabled: boolean;
  onSubmit: (answer: ExitSurveyAnswer) => void;
  children: (parts: { body: ReactNode }) => ReactNode;
}) {
  const [reasons] = useState(() => shuffledExitSurveyReasons(random));
  const [reasonId, setReasonId] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const firstRadio = useRef<HTMLInputElement>(null);
  const id = useId();
  const legendId = `${id}-legend`;
  const errorId = `${id}-error`;
  const messageId = `${id}-message`;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disabled) return;
    const result = exitSurveyAnswer(reasonId, message);
    if (!result.ok) {
      setError(result.error);
      firstRadio.current?.focus();
      return;
    }
    setError(null);
    onSubmit(result.answer);
  };

  const body = (
    <div className="space-y-5">
      <fieldset
        disabled={disabled}
        aria-describedby={error ? errorId : undefined}
        className="min-w-0 space-y-3"
      >
        <legend id={legendId} className="mb-3 font-medium">
          Why are you downgrading?
        </legend>
        <div className="-mx-2 space-y-0.5">
          {reasons.map((reason, index) => {
            const inputId = `${id}-reason-${reason.id}`;
            return (
              // The whole row is the label: a large target on a phone.
              <label
                key={reason.id}
                htmlFor={inputId}
                className="flex cursor-pointer items-start gap-3 rounded-md px-2 py-1.5 text-sm leading-5 hover:bg-muted has-[:checked]:bg-muted"
              >
                <input
                  ref={index === 0 ? firstRadio : undefined}
                  id={inputId}
                  type="radio"
                  name={`${id}-reason`}
                  value={reason.id}
                  checked={reasonId === reason.id}
                  onChange={() => {
                    setReasonId(reason.id);
                    setError(null);
                  }}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? errorId : undefined}
                  className="mt-0.5 size-4 shrink-0 accent-primary"
                />
                <span className="min-w-0">{reason.label}</span>
              </label>
            );
          })}
        </div>
        {error ? (
          <p id={errorId} role="alert" className="text-sm text-destructive">
            {error}
          </p>
        ) : null}
      </fieldset>
      <div className="space-y-1.5">
        <label htmlFor={messageId} className="block text-sm font-medium">
          {exitSurveyMessageLabel(reasonId)}
        </label>
        <textarea
          id={messageId}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          disabled={disabled}
          rows={3}
          aria-describedby={`${messageId}-hint`}
          className={TEXTAREA}
        />
        <p id={`${messageId}-hint`} className="text-xs text-muted-foreground">
          Optional. Only our product team reads it.
        </p>
      </div>
    </div>
  );

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-labelledby={legendId}
      aria-busy={disabled || undefined}
      className="flex min-h-0 flex-1 flex-col"
    >
      {children({ body })}
    </form>
  );
}
