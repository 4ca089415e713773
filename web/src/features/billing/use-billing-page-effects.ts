import { useEffect, useRef } from 'react';
import type { BillingPanel, BillingSource } from '@meterline/domain';
import { useLocation } from '../../lib/router';
import { track } from '../../lib/analytics';

/** One page event per organization and source, however often React re-runs effects. */
export function useTrackBillingView(organization: string, source: BillingSource | null): void {
  const tracked = useRef<string | null>(null);
  useEffect(() => {
    const key = `${organization}|${source ?? ''}`;
    if (tracked.current === key) return;
    tracked.current = key;
    track({ name: 'billing_page_viewed', properties: { organization, source } });
  }, [organization, source]);
}

/**
 * Opening a panel scrolls to the top of the page (the spec); otherwise an anchor such as
 * #breakdown is honoured once the sections exist, which is after the router's own attempt.
 */
export function useBillingScroll(panel: BillingPanel | null): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (panel) {
      window.scrollTo({ top: 0 });
      return;
    }
    if (hash.length > 1) {
      document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView?.();
    }
  }, [panel, hash]);
}
