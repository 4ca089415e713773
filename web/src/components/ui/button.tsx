import type { ComponentProps } from 'react';
import { Slot } from 'radix-ui';
import { cn } from '../../lib/cn';

const VARIANTS = {
  primary: 'bg-primary text-primary-foreground shadow-card hover:bg-primary-hover',
  secondary: 'border border-input bg-card text-foreground shadow-card hover:bg-muted',
  ghost: 'text-muted-foreground hover:bg-muted hover:text-foreground',
  /** A confirmation that deletes or revokes. */
  destructive: 'bg-destructive text-primary-foreground shadow-card hover:bg-destructive/90',
  /** Secondary, for an action that removes something. */
  'destructive-secondary':
    'border border-input bg-card text-destructive shadow-card hover:bg-muted',
} as const;

const SIZES = {
  sm: 'h-8 gap-1.5 px-3',
  md: 'h-9 gap-2 px-4',
  icon: 'size-8',
} as const;

export type ButtonProps = ComponentProps<'button'> & {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
  /** Renders the single child (a link) with the button's look. */
  asChild?: boolean;
};

export function buttonClasses(
  variant: keyof typeof VARIANTS = 'secondary',
  size: keyof typeof SIZES = 'md',
): string {
  return cn(
    'inline-flex shrink-0 items-center justify-center rounded-md text-sm font-medium whitespace-nowrap select-none transition-colors',
    'disabled:pointer-events-none disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50',
    '[&_svg]:size-4 [&_svg]:shrink-0',
    VARIANTS[variant],
    SIZES[size],
  );
}

export function Button({
  variant = 'secondary',
  size = 'md',
  asChild = false,
  className,
  type,
  ...props
}: ButtonProps) {
  if (asChild)
    return <Slot.Root className={cn(buttonClasses(variant, size), className)} {...props} />;
  return (
    <button
      type={type ?? 'button'}
      className={cn(buttonClasses(variant, size), className)}
      {...props}
    />
  );
}
