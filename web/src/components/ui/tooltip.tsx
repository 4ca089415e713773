import {
  cloneElement,
  createContext,
  lazy,
  Suspense,
  useContext,
  useEffect,
  useId,
  useState,
  type ReactElement,
  type ReactNode,
  type SyntheticEvent,
} from 'react';

// Tooltips show nothing until the user points at or focuses their trigger: the bubble and its
// positioning (floating-ui) load then, not with the page. The trigger itself is
// always the caller's own element, so a click on it never meets a replaced node.
const loadBubble = () => import('./tooltip-bubble');
const TooltipBubble = lazy(async () => ({ default: (await loadBubble()).TooltipBubble }));

/** How long the pointer rests on a trigger before its tooltip opens, in milliseconds. */
export const TooltipDelay = createContext(300);

type OpenState = 'delayed-open' | 'instant-open' | null;

/** The timers and pointer state of one tooltip, outside React's render. */
class TooltipControl {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pressed = false;

  /** A press focuses too: only focus from the keyboard opens the tooltip. */
  get pressing(): boolean {
    return this.pressed;
  }

  press(pressed: boolean): void {
    this.pressed = pressed;
  }

  later(delay: number, action: () => void): void {
    this.cancel();
    if (delay <= 0) action();
    else this.timer = setTimeout(action, delay);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

type Handler = (event: SyntheticEvent<HTMLElement>) => void;

/**
 * A short explanation on hover and keyboard focus. The trigger is the single child, which must be
 * focusable (a disabled button is not: wrap it in a focusable span) and take a ref. The bubble has
 * `role="tooltip"` and describes the trigger while open; callers that need the text always available
 * also describe the trigger with `aria-describedby`. As Radix's tooltip did: the pointer opens it
 * after the delay, keyboard focus at once; leaving, blur, a press or Escape close it.
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
  const delay = useContext(TooltipDelay);
  const id = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [open, setOpen] = useState<OpenState>(null);
  const [control] = useState(() => new TooltipControl());
  useEffect(() => () => control.cancel(), [control]);

  const close = () => {
    control.cancel();
    setOpen(null);
  };
  const handlers: Record<string, Handler> = {
    onPointerEnter: (event) => {
      if ((event as unknown as PointerEvent).pointerType === 'touch') return;
      void loadBubble().catch(() => undefined);
      control.later(delay, () => setOpen('delayed-open'));
    },
    onPointerLeave: close,
    onPointerDown: () => {
      control.press(true);
      close();
    },
    onClick: close,
    onFocus: () => {
      if (control.pressing) return;
      control.cancel();
      setOpen('instant-open');
    },
    onBlur: () => {
      control.press(false);
      close();
    },
  };

  const own = children.props as Record<string, unknown>;
  const props: Record<string, unknown> = { ref: setAnchor };
  for (const [name, handler] of Object.entries(handlers)) {
    const theirs = own[name];
    props[name] =
      typeof theirs === 'function'
        ? (event: SyntheticEvent<HTMLElement>) => {
            (theirs as Handler)(event);
            handler(event);
          }
        : handler;
  }
  if (open && own['aria-describedby'] === undefined) props['aria-describedby'] = id;

  return (
    <>
      {cloneElement(children, props)}
      {open && anchor ? (
        <Suspense fallback={null}>
          <TooltipBubble anchor={anchor} id={id} side={side} state={open} onClose={close}>
            {content}
          </TooltipBubble>
        </Suspense>
      ) : null}
    </>
  );
}
