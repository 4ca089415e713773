import type { MouseEvent } from 'react';

/**
 * "Skip to content": the first tab stop of every page, out of sight until it has focus. It moves
 * focus (not only the scroll position) to the page's `main` landmark (every page's `<main>` has the
 * id `main`, which its href names), so the next Tab continues in the content rather than in the
 * header. Handled here rather than by the browser's fragment navigation, which would add `#main` to
 * the router's location and take focus nowhere on a `main` that is not focusable.
 */
export function SkipLink() {
  const skip = (event: MouseEvent<HTMLAnchorElement>) => {
    const main = document.getElementById('main') ?? document.querySelector<HTMLElement>('main');
    if (!main) return;
    event.preventDefault();
    // Focusable by script only: a click on the page's background does not land on it.
    if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1');
    main.focus();
  };
  return (
    <a
      href="#main"
      onClick={skip}
      className="fixed top-2 left-2 z-[60] -translate-y-[200%] rounded-md border bg-card px-3 py-2 text-sm font-medium text-foreground shadow-popover transition-transform focus-visible:translate-y-0"
    >
      Skip to content
    </a>
  );
}
