import type { BillingSection } from '@meterline/domain';
import { Link } from '../../lib/router';
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
 * Jump links to the visible sections, beside the page on wide screens. The page puts them before
 * its sections in the document, so they come early in the tab order.
 */
export function BillingPageNav({ sections }: { sections: readonly BillingSection[] }) {
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
                className="-ml-px block border-l border-transparent py-1 pr-2 pl-3 text-muted-foreground transition-colors hover:border-foreground/40 hover:text-foreground"
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
