import { useEffect, useState } from 'react';

/**
 * Gives focus back to the element that had it when the component mounted (the button that opened the
 * flow), once it unmounts. The shared dialog has no Radix trigger to return to: the flow is opened by
 * mounting it. Runs after the dialog's own clean-up, and only when focus was left on nothing, so it
 * never takes focus from whatever the page moved it to.
 */
export function useReturnFocus(): void {
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  useEffect(
    () => () => {
      setTimeout(() => {
        const active = document.activeElement;
        const leftOnNothing = !active || active === document.body;
        if (opener?.isConnected && leftOnNothing) opener.focus();
      }, 0);
    },
    [opener],
  );
}
