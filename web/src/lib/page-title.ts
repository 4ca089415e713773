import { useEffect } from 'react';

export const PRODUCT_NAME = 'Meterline';

/** "Billing · Acme Pro · Meterline": what the page is, where, then the product. */
export function pageTitle(...parts: readonly (string | null | undefined)[]): string {
  return [...parts.filter((part): part is string => Boolean(part?.trim())), PRODUCT_NAME].join(
    ' · ',
  );
}

/**
 * Names the route in the document's one `<title>` (index.html's, which React's own `<title>`
 * elements would sit beside rather than replace). Every route component calls it; the title stays
 * as it is while a route has not said yet (loading).
 */
export function usePageTitle(...parts: readonly (string | null | undefined)[]): void {
  const title = pageTitle(...parts);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** The hook for a branch of a route's render: `<PageTitle parts={['Pay invoice', name]} />`. */
export function PageTitle({ parts }: { parts: readonly (string | null | undefined)[] }): null {
  usePageTitle(...parts);
  return null;
}
