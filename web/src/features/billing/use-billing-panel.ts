import { useCallback } from 'react';
import { parseBillingPanel, type BillingPanel } from '@meterline/domain';
import { useSearchParams } from '../../lib/router';

/**
 * The side panel named by `?panel=` (subscriptionPlan or costControl). Later issues open their
 * panels from it; the URL stays the single source, so links and reloads open the same panel.
 */
export function useBillingPanel(): {
  panel: BillingPanel | null;
  openPanel: (panel: BillingPanel) => void;
  closePanel: () => void;
} {
  const [params, setParams] = useSearchParams();
  const panel = parseBillingPanel(params.get('panel'));

  const openPanel = useCallback(
    (next: BillingPanel) =>
      setParams((previous) => {
        const updated = new URLSearchParams(previous);
        updated.set('panel', next);
        return updated;
      }),
    [setParams],
  );

  const closePanel = useCallback(
    () =>
      setParams((previous) => {
        const updated = new URLSearchParams(previous);
        updated.delete('panel');
        return updated;
      }),
    [setParams],
  );

  return { panel, openPanel, closePanel };
}
