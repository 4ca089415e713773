import { createContext, use } from 'react';
import type { CardEntry } from './payment-port';

/** Provided by each adapter's `CardScope`. */
export const CardEntryContext = createContext<CardEntry | null>(null);

/** The card typed into the port's `CardFields`, for the form around them. */
export function useCardEntry(): CardEntry {
  const entry = use(CardEntryContext);
  if (!entry) throw new Error('useCardEntry is only available inside the payment port CardScope');
  return entry;
}
