import { useId, type ComponentProps, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

/** A checkbox with its label beside it and an optional hint below the label. */
export function CheckboxField({
  label,
  hint,
  className,
  ...props
}: Omit<ComponentProps<'input'>, 'type'> & { label: ReactNode; hint?: ReactNode }) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={cn('flex items-start gap-3', className)}>
      <input
        id={id}
        type="checkbox"
        aria-describedby={hint ? hintId : undefined}
        className="mt-0.5 size-4 shrink-0 rounded border-input accent-primary disabled:cursor-not-allowed disabled:opacity-50"
        {...props}
      />
      <div className="min-w-0 space-y-0.5">
        <label htmlFor={id} className="block text-sm font-medium leading-5">
          {label}
        </label>
        {hint ? (
          <p id={hintId} className="text-xs text-muted-foreground">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** An on/off switch as a checkbox with the switch role, its label beside it. */
export function SwitchField({
  label,
  className,
  ...props
}: Omit<ComponentProps<'input'>, 'type' | 'role'> & { label: ReactNode }) {
  const id = useId();
  return (
    <div className={cn('flex items-center gap-3', className)}>
      <span className="relative inline-flex h-5 w-9 shrink-0">
        <input
          id={id}
          type="checkbox"
          role="switch"
          className="peer absolute inset-0 z-10 cursor-pointer appearance-none rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed"
          {...props}
        />
        <span
          aria-hidden
          className="pointer-events-none absolute inset-0 rounded-full bg-subtle transition-colors peer-checked:bg-primary peer-disabled:opacity-50"
        />
        <span
          aria-hidden
          className="pointer-events-none absolute top-0.5 left-0.5 size-4 rounded-full bg-white shadow-card transition-transform peer-checked:translate-x-4"
        />
      </span>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
    </div>
  );
}
