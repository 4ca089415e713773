import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { autoUpdate, flip, offset, shift, useFloating } from '@floating-ui/react-dom';

/** An open tooltip beside its trigger, loaded with the first one (./tooltip). */
export function TooltipBubble({
  anchor,
  id,
  side,
  state,
  onClose,
  children,
}: {
  anchor: HTMLElement;
  id: string;
  side: 'top' | 'right' | 'bottom' | 'left';
  state: 'delayed-open' | 'instant-open';
  onClose: () => void;
  children: ReactNode;
}) {
  const [floating, setFloating] = useState<HTMLElement | null>(null);
  const { floatingStyles } = useFloating({
    elements: { reference: anchor, floating },
    placement: side,
    strategy: 'fixed',
    middleware: [offset(6), flip({ padding: 12 }), shift({ padding: 12 })],
    whileElementsMounted: autoUpdate,
  });

  // Escape closes the tooltip alone: caught before a dialog around it would close too.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      onClose();
    };
    window.addEventListener('keydown', onKeyDown, { capture: true });
    return () => window.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [onClose]);

  return createPortal(
    <div
      ref={setFloating}
      id={id}
      role="tooltip"
      data-state={state}
      style={floatingStyles}
      className="z-50 max-w-72 rounded-md border bg-popover px-3 py-2 text-xs leading-relaxed text-foreground shadow-popover data-[state=delayed-open]:animate-fade-in"
    >
      {children}
    </div>,
    anchor.ownerDocument.body,
  );
}
