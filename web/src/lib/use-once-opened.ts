import { useState } from 'react';

/**
 * True from the first time `open` is true, and from then on: a panel or dialog whose code loads when
 * first wanted is mounted then, and kept mounted so that it can animate closed and return the focus.
 */
export function useOnceOpened(open: boolean): boolean {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  return opened || open;
}
