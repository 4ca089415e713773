import type { ComponentProps } from 'react';
import { cn } from '../../lib/cn';

const TONES = {
  neutral: 'border-border bg-muted text-muted-foreground',
  primary: 'border-transparent bg-primary-soft text-primary-soft-foreground',
  success: 'border-transparent bg-success-soft text-success-soft-foreground',
  warning: 'border-transparent bg-warning-soft text-warning-soft-foreground',
  destructive: 'border-transparent bg-destructive-soft text-destructive-soft-foreground',
} as const;

export type BadgeTone = keyof typeof TONES;

export function Badge({
  tone = 'neutral',
  className,
  ...props
}: ComponentProps<'span'> & { tone?: BadgeTone }) {
  return (
    <span
      className={cn(
        'inline-flex h-5 shrink-0 items-center gap-1 rounded-full border px-2 text-xs font-medium whitespace-nowrap',
        TONES[tone],
        className,
      )}
      {...props}
    />
  );
}
