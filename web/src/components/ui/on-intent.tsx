import {
  startTransition,
  Suspense,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent,
  type ReactElement,
  type ReactNode,
  type RefCallback,
} from 'react';

// Menus, popovers and dialogs show nothing until the user opens them, and Radix with its positioning
// was a fifth of the page's JavaScript: they load on intent instead of with the page.
// A stand-in with the trigger's own look and accessible name stands where the trigger will be; pointing
// at it or focusing it fetches the part, and activating it (a click, or a key that opens a menu) puts
// the part in its place, open.

/** What a part loaded on intent is given. */
export interface IntentProps {
  /** Mount open: the stand-in was activated. */
  defaultOpen: boolean;
  /** Opened by a key on the stand-in: a menu puts focus on its first item, as Radix does itself. */
  openedByKeyboard: boolean;
  /** For the part's trigger: it takes the focus the stand-in had. */
  triggerRef: RefCallback<HTMLElement>;
}

/** Handlers and ref for the stand-in trigger. */
export interface StandInProps {
  ref: RefCallback<HTMLElement>;
  onPointerEnter: (event: PointerEvent<HTMLElement>) => void;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
  onClick: (event: MouseEvent<HTMLElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
}

/** Carries focus from the stand-in to the part's trigger when one replaces the other. */
class FocusCarry {
  private carried = false;

  /** React detaches the stand-in's ref before it removes the element: it still has focus then. */
  readonly standInRef: RefCallback<HTMLElement> = (node) => {
    if (!node) return;
    this.carried = false;
    return () => {
      if (node.ownerDocument.activeElement === node) this.carried = true;
    };
  };

  readonly triggerRef: RefCallback<HTMLElement> = (node) => {
    if (node && this.carried) {
      this.carried = false;
      node.focus({ preventScroll: true });
    }
  };
}

interface Wanted {
  wanted: boolean;
  defaultOpen: boolean;
  openedByKeyboard: boolean;
}

/** Keys that open a menu or popover from its trigger (Radix's own). */
const OPENING_KEYS = ['Enter', ' ', 'ArrowDown'];

/**
 * Renders `standIn` until the user activates it, then the part `children` renders (a `lazy` component
 * whose chunk `load` fetches), open.
 */
export function OnIntent({
  load,
  standIn,
  children,
}: {
  load: () => Promise<unknown>;
  standIn: (props: StandInProps) => ReactElement;
  children: (props: IntentProps) => ReactNode;
}) {
  const [state, setState] = useState<Wanted>({
    wanted: false,
    defaultOpen: false,
    openedByKeyboard: false,
  });
  const [focus] = useState(() => new FocusCarry());

  // A transition keeps the stand-in on screen (and focused) until the part has loaded: a Suspense
  // fallback would replace it at once.
  const want = (open: boolean, byKeyboard = false) => {
    startTransition(() =>
      setState({ wanted: true, defaultOpen: open, openedByKeyboard: byKeyboard }),
    );
  };

  // Pointing at or focusing the stand-in only fetches the part: the part replaces it when activated,
  // so a click in progress never lands on an element that has just gone.
  const prefetch = () => void load().catch(() => undefined);
  const standInProps: StandInProps = {
    ref: focus.standInRef,
    onPointerEnter: prefetch,
    onFocus: prefetch,
    onClick: () => want(true),
    onKeyDown: (event) => {
      if (!OPENING_KEYS.includes(event.key)) return;
      // No click follows: the part opens once, from the key.
      event.preventDefault();
      want(true, true);
    },
  };

  return (
    <Suspense fallback={standIn(standInProps)}>
      {state.wanted
        ? children({
            defaultOpen: state.defaultOpen,
            openedByKeyboard: state.openedByKeyboard,
            triggerRef: focus.triggerRef,
          })
        : standIn(standInProps)}
    </Suspense>
  );
}

/**
 * For a menu opened by a key on its stand-in: focus goes to the first item when the menu takes focus,
 * as Radix does when it sees the key on its own trigger. The content's `onFocus`.
 */
export function useFocusFirstItem(openedByKeyboard: boolean) {
  const pending = useRef(openedByKeyboard);
  return (event: FocusEvent<HTMLElement>) => {
    if (!pending.current || event.target !== event.currentTarget) return;
    pending.current = false;
    event.currentTarget
      .querySelector<HTMLElement>('[role^="menuitem"]:not([data-disabled])')
      ?.focus({ preventScroll: true });
  };
}
