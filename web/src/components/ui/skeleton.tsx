import type { ComponentProps, ReactNode } from 'react';
import { cn } from '../../lib/cn';

/**
 * A placeholder block; screen readers skip it, the surrounding region announces the loading. `round`
 * stands for a circle or a pill (an avatar, a badge).
 */
export function Skeleton({
  className,
  round = false,
  ...props
}: ComponentProps<'div'> & { round?: boolean }) {
  return (
    <div
      aria-hidden
      className={cn('animate-pulse bg-subtle', round ? 'rounded-full' : 'rounded-md', className)}
      {...props}
    />
  );
}

/** Wraps skeletons so assistive technology hears one "Loading ..." instead of silence. */
export function LoadingRegion({
  label,
  className,
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div role="status" aria-live="polite" aria-busy="true" className={className}>
      <span className="sr-only">{label}</span>
      {children}
    </div>
  );
}
