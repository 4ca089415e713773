import { useId } from 'react';
import { Button, type ButtonProps } from './ui/button';
import { Tooltip } from './ui/tooltip';

/**
 * A button that, when something forbids its action, is disabled with the reason as a tooltip. A
 * disabled button takes no focus or hover: a focusable wrapper carries the tooltip and describes it
 * to screen readers.
 */
export function BlockedButton({
  blocker,
  children,
  ...props
}: ButtonProps & { blocker: string | null }) {
  const reasonId = useId();
  if (!blocker) return <Button {...props}>{children}</Button>;
  return (
    <Tooltip content={blocker}>
      <span tabIndex={0} aria-describedby={reasonId} className="inline-flex rounded-md">
        <Button {...props} className="w-full" disabled>
          {children}
        </Button>
        <span id={reasonId} className="sr-only">
          {blocker}
        </span>
      </span>
    </Tooltip>
  );
}
