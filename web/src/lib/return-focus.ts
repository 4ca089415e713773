/**
 * Where focus goes when a dialog or side panel closes: back to the element that opened it. Radix does
 * this only for a `Dialog.Trigger`; ours are opened by state (a `?panel=` link, a button that sets a
 * target, a flow that opens the next dialog), so each remembers its opener itself.
 *
 * When the opener is gone (it sat in a side panel that closed with the dialog, as "Upgrade to Pro"
 * does once the upgrade succeeds), focus goes to whatever opened the container that held it, and so on
 * outwards: the "Change subscription plan" link. A dialog opened with focus on nothing (the upgrade
 * survey, opened by the success) returns to where the dialogs closed before it returned. Focus is never
 * moved out of a dialog that is still open.
 */

interface Opening {
  /** The dialog's content element: kept after it closes, to find what was inside it. */
  content: HTMLElement;
  opener: HTMLElement | null;
}

/** The last few dialogs opened, newest last: enough to walk out of nested ones. */
const openings: Opening[] = [];
const KEPT = 20;
/** Where the last closed dialog returned focus to (or would have, had another dialog been open). */
let lastTarget: HTMLElement | null = null;

function usable(element: HTMLElement | null): element is HTMLElement {
  return (
    element !== null &&
    element !== document.body &&
    element.isConnected &&
    !(element as HTMLElement & { disabled?: boolean }).disabled
  );
}

/** The opener, or when it is gone, the opener of the dialog that held it, and so on. */
function resolve(opener: HTMLElement | null): HTMLElement | null {
  let element = opener;
  for (let step = 0; step < KEPT && element; step += 1) {
    if (usable(element)) return element;
    const current = element;
    const holder = [...openings]
      .reverse()
      .find((opening) => opening.content !== current && opening.content.contains(current));
    element = holder?.opener ?? null;
  }
  return usable(lastTarget) ? lastTarget : null;
}

function openDialogs(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('[role="dialog"][data-state="open"]')];
}

/**
 * A menu item that opens a dialog goes with its menu: the opener is the button that opened the menu
 * (Radix names the menu in the trigger's `aria-controls`), which stays on the page.
 */
function openerOf(active: Element | null): HTMLElement | null {
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  const menu = active.closest<HTMLElement>('[role="menu"]');
  if (!menu?.id) return active;
  const trigger = document.querySelector<HTMLElement>(`[aria-controls="${CSS.escape(menu.id)}"]`);
  return trigger ?? active;
}

/** For Radix `onOpenAutoFocus`: remembers what had focus (Radix calls it before moving focus). */
export function rememberOpener(event: Event): void {
  const content = event.currentTarget ?? event.target;
  if (!(content instanceof HTMLElement)) return;
  openings.push({ content, opener: openerOf(document.activeElement) });
  if (openings.length > KEPT) openings.splice(0, openings.length - KEPT);
}

/** For Radix `onCloseAutoFocus`: gives focus back instead of Radix (which knows only a Trigger). */
export function returnFocus(event: Event): void {
  event.preventDefault();
  const content = event.currentTarget ?? event.target;
  const opening = [...openings].reverse().find((candidate) => candidate.content === content);
  const target = resolve(opening?.opener ?? null);
  if (!target) return;
  lastTarget = target;
  const open = openDialogs().filter((dialog) => dialog !== content);
  if (open.length > 0 && !open.some((dialog) => dialog.contains(target))) return;
  target.focus();
}
