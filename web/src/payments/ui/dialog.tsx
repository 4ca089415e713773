import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { X } from 'lucide-react';
import { Dialog as RadixDialog } from 'radix-ui';
import { cn } from '../../lib/cn';
import { rememberOpener, returnFocus } from '../../lib/return-focus';

/**
 * A modal dialog of the payment flows: Radix keeps focus inside while it is open, focus returns to
 * the opener when it closes (lib/return-focus: these dialogs are opened by state, not a Radix
 * Trigger), and Radix hides the rest of the page from assistive technology. The body
 * scrolls between a fixed header and footer, so long forms fit a phone.
 *
 * `dismissible` false (while a payment is under way) ignores Escape, outside clicks and hides the
 * close button: a payment cannot be abandoned halfway by accident.
 *
 * With `footer`, the children are the body; without it, the children lay out the body and footer
 * themselves with `DialogBody` and `DialogFooter` (a form that holds both).
 */
export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  dismissible = true,
  size = 'md',
  onOpenAutoFocus,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
  dismissible?: boolean;
  size?: 'sm' | 'md' | 'lg';
  onOpenAutoFocus?: (event: Event) => void;
}) {
  const content = useRef<HTMLDivElement>(null);
  const block = (event: Event) => {
    if (!dismissible) event.preventDefault();
  };
  // Focus starts on the first field of the form, or on the dialog itself while the form loads
  // (`useFocusFirstField` moves it on once the form is there), never on the way out.
  const focusFirstField = (event: Event) => {
    rememberOpener(event);
    onOpenAutoFocus?.(event);
    if (event.defaultPrevented) return;
    event.preventDefault();
    const container = content.current;
    (container && firstField(container) ? firstField(container) : container)?.focus();
  };
  return (
    <RadixDialog.Root
      open={open}
      onOpenChange={(next) => (dismissible || next) && onOpenChange(next)}
    >
      <RadixDialog.Portal>
        {/* The overlay holds the content: a dialog opened from a dialog stacks above it whole. */}
        <RadixDialog.Overlay className="fixed inset-0 z-50 grid place-items-center bg-black/40 p-3 data-[state=open]:animate-fade-in dark:bg-black/60">
          <RadixDialog.Content
            ref={content}
            onEscapeKeyDown={block}
            onPointerDownOutside={block}
            onInteractOutside={block}
            onOpenAutoFocus={focusFirstField}
            onCloseAutoFocus={returnFocus}
            {...(description ? {} : { 'aria-describedby': undefined })}
            className={cn(
              'relative flex max-h-[calc(100dvh-1.5rem)] w-full flex-col rounded-lg border bg-card text-card-foreground shadow-popover outline-none',
              size === 'sm' && 'max-w-md',
              size === 'md' && 'max-w-lg',
              size === 'lg' && 'max-w-2xl',
            )}
          >
            <div className="border-b py-4 pr-12 pl-5 sm:pl-6">
              <div className="min-w-0 space-y-1">
                <RadixDialog.Title className="text-base font-semibold tracking-tight">
                  {title}
                </RadixDialog.Title>
                {description ? (
                  <RadixDialog.Description className="text-muted-foreground">
                    {description}
                  </RadixDialog.Description>
                ) : null}
              </div>
            </div>
            {footer === undefined ? (
              children
            ) : (
              <>
                <DialogBody>{children}</DialogBody>
                <DialogFooter>{footer}</DialogFooter>
              </>
            )}
            {/* Last in the tab order: focus starts on the form, not on the way out of it. */}
            {dismissible ? (
              <RadixDialog.Close
                aria-label="Close"
                className="absolute top-3 right-3 inline-flex size-8 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
              >
                <X aria-hidden className="size-4" />
              </RadixDialog.Close>
            ) : null}
          </RadixDialog.Content>
        </RadixDialog.Overlay>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** The scrolling middle of a dialog. */
export function DialogBody({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div className={cn('min-h-0 flex-1 overflow-y-auto px-5 py-5 sm:px-6', className)}>
      {children}
    </div>
  );
}

/** The dialog's actions, below the body; stacked on phones with the main action on top. */
export function DialogFooter({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col-reverse gap-2 border-t px-5 py-4 sm:flex-row sm:items-center sm:justify-end sm:px-6">
      {children}
    </div>
  );
}

const FIELDS =
  'input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled])';

function firstField(container: HTMLElement): HTMLElement | null {
  return container.querySelector<HTMLElement>(FIELDS);
}

/**
 * For a form that appears inside an open dialog after loading: when focus is still on the dialog
 * itself, it moves to the form's first field.
 */
export function useFocusFirstField(form: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const active = document.activeElement;
    const element = form.current;
    if (!element || !(active instanceof HTMLElement) || active.getAttribute('role') !== 'dialog') {
      return;
    }
    if (active.contains(element)) firstField(element)?.focus();
  }, [form]);
}
