import { Link } from '../lib/router';
import { cn } from '../lib/cn';

export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden className={cn('size-6 shrink-0', className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <path
        d="M8 22V10l5 7 5-7v12"
        fill="none"
        stroke="white"
        strokeWidth="2.6"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path d="M22 22v-8" stroke="white" strokeWidth="2.6" strokeLinecap="round" />
    </svg>
  );
}

/** The product name with its mark; the wordmark hides on narrow screens when `compact`. */
export function Logo({ compact = false, to = '/' }: { compact?: boolean; to?: string }) {
  return (
    <Link
      to={to}
      className="flex shrink-0 items-center gap-2 rounded-md font-semibold tracking-tight text-foreground"
    >
      <LogoMark />
      <span className={cn('text-[15px]', compact && 'max-sm:sr-only')}>Meterline</span>
    </Link>
  );
}
