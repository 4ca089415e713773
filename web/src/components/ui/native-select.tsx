import type { ComponentProps } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from '../../lib/cn';

/**
 * The platform's own select, styled like `Input`: every option list stays reachable by keyboard,
 * type-ahead and screen readers, and long lists (countries) scroll natively on phones.
 */
export function NativeSelect({
  className,
  boxClassName,
  children,
  ...props
}: ComponentProps<'select'> & {
  /** Classes of the box around the select and its chevron: its width (the select fills it). */
  boxClassName?: string;
}) {
  return (
    <div className={cn('relative', boxClassName)}>
      <select
        className={cn(
          'peer h-9 w-full min-w-0 appearance-none truncate rounded-md border border-input bg-card py-0 pr-9 pl-3 text-sm text-foreground shadow-card transition-colors',
          'focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring/30',
          'disabled:cursor-not-allowed disabled:bg-muted disabled:opacity-100 disabled:shadow-none dark:[color-scheme:dark]',
          'aria-invalid:border-destructive aria-invalid:focus-visible:outline-destructive/25',
          className,
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-muted-foreground peer-disabled:hidden"
      />
    </div>
  );
}
