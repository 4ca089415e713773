import { RotateCw, TriangleAlert } from 'lucide-react';
import { cn } from '../lib/cn';
import { Button } from './ui/button';

/** A failed load: what failed, the server's message, and a way to try again. */
export function ErrorState({
  title,
  error,
  onRetry,
  className,
}: {
  title: string;
  error: unknown;
  onRetry?: () => void;
  className?: string;
}) {
  const message = error instanceof Error ? error.message : 'Something went wrong.';
  return (
    <div
      role="alert"
      className={cn(
        'flex flex-col items-start gap-3 rounded-lg border border-destructive/30 bg-destructive-soft px-4 py-4 sm:flex-row sm:items-center',
        className,
      )}
    >
      <TriangleAlert aria-hidden className="size-4 shrink-0 text-destructive" />
      <div className="min-w-0 flex-1">
        <p className="font-medium text-foreground">{title}</p>
        <p className="text-muted-foreground">{message}</p>
      </div>
      {onRetry ? (
        <Button size="sm" onClick={onRetry}>
          <RotateCw aria-hidden />
          Try again
        </Button>
      ) : null}
    </div>
  );
}
