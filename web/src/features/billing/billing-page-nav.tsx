import type { BillingSection } from '@meterline/domain';
import { Link } from 'react-router';
import { SECTION_COPY } from './billing-sections';

/** Jump links to the visible sections, beside the page on wide screens. */
export function BillingPageNav({ sections }: { sections: readonly BillingSection[] }) {
  return (
    <nav aria-label="On this page" className="hidden lg:block">
      <div className="sticky top-32">
        <p className="mb-2 px-2 text-xs font-medium text-muted-foreground">On this page</p>
        <ul className="space-y-0.5 border-l">
          {sections.map((section) => (
            <li key={section}>
              <Link
                to={{ hash: section }}
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
