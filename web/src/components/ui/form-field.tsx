import { cloneElement, useId, type ReactElement, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

/**
 * A labelled form control whose errors are announced: like `Field`, it wires `id`, `aria-invalid` and
 * `aria-describedby` onto the single child control, and its error area is a polite live region that
 * is always in the page, so a message that appears (on submit, or as a tag is added) is read out.
 * Several errors (one per item of a list) are shown one per line.
 */
export function FormField({
  label,
  error,
  hint,
  optional = false,
  className,
  children,
}: {
  label: ReactNode;
  error?: string | readonly string[];
  hint?: ReactNode;
  /** Shows "(optional)" beside the label for fields the form does not require. */
  optional?: boolean;
  className?: string;
  children: ReactElement<Record<string, unknown>>;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const errors = (typeof error === 'string' ? [error] : (error ?? [])).filter(Boolean);
  const describedBy = [hint ? hintId : null, errors.length ? errorId : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={cn('space-y-1.5', className)}>
      <div className="flex items-baseline gap-1.5">
        <label htmlFor={id} className="block text-sm font-medium">
          {label}
        </label>
        {/* Outside the label: the control's accessible name stays the field's name. */}
        {optional ? <span className="text-xs text-muted-foreground">(optional)</span> : null}
      </div>
      {cloneElement(children, {
        id,
        'aria-invalid': errors.length ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      <div id={errorId} aria-live="polite" className="text-xs text-destructive empty:hidden">
        {errors.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
    </div>
  );
}
