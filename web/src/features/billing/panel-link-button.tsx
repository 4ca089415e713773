import { useId, type MouseEvent } from 'react';
import type { BillingPanel } from '@meterline/domain';
import { Link, useSearchParams } from '../../lib/router';
import { Button, type ButtonProps } from '../../components/ui/button';
import { Tooltip } from '../../components/ui/tooltip';
import { useBillingPanel } from './use-billing-panel';

/**
 * A button that opens a billing side panel: a real link to `?panel=…` (so it can be opened in a new tab
 * or copied), or, when something forbids the change, a disabled button whose reason is a tooltip.
 */
export function PanelLinkButton({
  panel,
  label,
  blocker,
  variant,
}: {
  panel: BillingPanel;
  label: string;
  blocker: string | null;
  variant?: ButtonProps['variant'];
}) {
  const [params] = useSearchParams();
  const { openPanel } = useBillingPanel();
  const reasonId = useId();

  if (blocker) {
    return (
      <Tooltip content={blocker}>
        {/* A disabled button takes no focus or hover: the wrapper carries the tooltip. */}
        <span tabIndex={0} aria-describedby={reasonId} className="inline-flex rounded-md">
          <Button variant={variant} disabled>
            {label}
          </Button>
          <span id={reasonId} className="sr-only">
            {blocker}
          </span>
        </span>
      </Tooltip>
    );
  }

  const next = new URLSearchParams(params);
  next.set('panel', panel);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    openPanel(panel);
  };
  return (
    <Button variant={variant} asChild>
      <Link to={{ search: `?${next.toString()}` }} onClick={onClick}>
        {label}
      </Link>
    </Button>
  );
}
