import type { ReactElement, ReactNode } from 'react';
import { Tooltip as RadixTooltip } from 'radix-ui';

/**
 * A short explanation on hover and keyboard focus. The trigger is the single child, which must be
 * focusable (a disabled button is not: wrap it in a focusable span). Screen readers get the text
 * through Radix's own `role="tooltip"` when it opens; callers that need it always available also
 * describe the trigger with `aria-describedby`.
 */
export function Tooltip({
  content,
  children,
  side = 'top',
}: {
  content: ReactNode;
  children: ReactElement;
  side?: 'top' | 'right' | 'bottom' | 'left';
}) {
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal>
        <RadixTooltip.Content
          side={side}
          sideOffset={6}
          collisionPadding={12}
          className="z-50 max-w-72 rounded-md border bg-popover px-3 py-2 text-xs leading-relaxed text-foreground shadow-popover data-[state=delayed-open]:animate-fade-in"
        >
          {content}
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
