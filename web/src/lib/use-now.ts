import { useState } from 'react';

/**
 * The moment the component mounted, in unix seconds. Rendering stays pure (the same value on every
 * render); a day counter a few hours stale until the next visit is fine.
 */
export function useNow(): number {
  const [now] = useState(() => Math.floor(Date.now() / 1000));
  return now;
}
