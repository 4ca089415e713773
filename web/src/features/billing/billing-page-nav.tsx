import { useEffect, useState } from 'react';
import type { BillingSection } from '@meterline/domain';
import { Link } from '../../lib/router';
import { cn } from '../../lib/cn';
import { SECTION_COPY } from './billing-sections';

/**
 * Focus follows the jump (the hash only scrolls): the next Tab continues inside the section. The
 * section is focusable by script only.
 */
function focusSection(section: BillingSection): void {
  const element = document.getElementById(section);
  if (!element) return;
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '-1');
  element.focus();
}

/**
 * The section being read: the first whose box crosses a band just below the sticky header (the top
 * third of the window), or the last one passed when the page is scrolled between two.
 */
function useSectionInView(sections: readonly BillingSection[]): BillingSection | null {
  const [current, setCurrent] = useState<BillingSection | null>(null);
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined') return;
    const visible = new Set<string>();
    const pick = () => {
      const inBand = sections.find((section) => visible.has(section));
      if (inBand) setCurrent(inBand);
    };
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          if (entry.isIntersecting) visible.add(entry.target.id);
          else visible.delete(entry.target.id);
        }
        pick();
      },
      { rootMargin: '-120px 0px -66% 0px' },
    );
    for (const section of sections) {
      const element = document.getElementById(section);
      if (element) observer.observe(element);
    }
    return () => observer.disconnect();
  }, [sections]);
  return current;
}

/**
 * Jump links to the visible sections, beside the page on wide screens. The page puts them before
 * its sections in the document, so they come early in the tab order.
 */
export function BillingPageNav({ sections }: { sections: readonly BillingSection[] }) {
  const current = useSectionInView(sections);
  return (
    // Never the browser's scroll anchor (it is first in the document and sticks): when a section
    // above the one a #hash scrolled to finishes loading, the anchor must be that section's content.
    <nav
      aria-label="On this page"
      className="hidden [overflow-anchor:none] lg:col-start-2 lg:row-start-1 lg:block"
    >
      <div className="sticky top-32">
        <p className="mb-2 px-2 text-xs font-medium text-muted-foreground">On this page</p>
        <ul className="space-y-0.5 border-l">
          {sections.map((section) => (
            <li key={section}>
              <Link
                to={{ hash: section }}
                onClick={() => focusSection(section)}
                aria-current={section === current ? 'location' : undefined}
                className={cn(
                  '-ml-px block border-l py-1 pr-2 pl-3 transition-colors hover:border-foreground/40 hover:text-foreground',
                  section === current
                    ? 'border-primary font-medium text-foreground'
                    : 'border-transparent text-muted-foreground',
                )}
              >
                {SECTION_COPY[section].title}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
