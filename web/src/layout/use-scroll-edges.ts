import { useEffect, useState } from 'react';

export interface ScrollEdges {
  /** There is more above what shows. */
  above: boolean;
  /** There is more below what shows. */
  below: boolean;
}

function edgesOf(element: HTMLElement): ScrollEdges {
  const { scrollTop, scrollHeight, clientHeight } = element;
  return { above: scrollTop > 1, below: scrollTop + clientHeight < scrollHeight - 1 };
}

/**
 * Whether a scrolling element has more to show above or below, kept current as it scrolls, resizes
 * or its content changes (`contentKey`: what changes its height, such as the number of rows).
 */
export function useScrollEdges(element: HTMLElement | null, contentKey: unknown): ScrollEdges {
  const [edges, setEdges] = useState<ScrollEdges>({ above: false, below: false });
  useEffect(() => {
    if (!element) return;
    const update = () =>
      setEdges((previous) => {
        const next = edgesOf(element);
        return next.above === previous.above && next.below === previous.below ? previous : next;
      });
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    observer?.observe(element);
    return () => {
      element.removeEventListener('scroll', update);
      observer?.disconnect();
    };
  }, [element, contentKey]);
  return edges;
}
