import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return (
    <input
      className={cn(
        'h-9 w-full min-w-0 rounded-md border border-input bg-card px-3 text-sm text-foreground shadow-card transition-colors',
        'placeholder:text-muted-foreground/70 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30',
        // A field that cannot be changed (a read-only member's form) still shows its value as a value.
        'disabled:cursor-not-allowed disabled:bg-muted disabled:shadow-none',
        'aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive/25',
        className,
      )}
      {...props}
    />
  );
}
