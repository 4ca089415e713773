import { createContext, use } from 'react';

/**
 * Shows the simulator's 3-D Secure challenge and settles with what the customer chose: resolves
 * when the intent succeeded, rejects with `CardError` when authentication failed. Provided by
 * `PaymentsProvider`, which renders the challenge screen.
 */
export type PresentChallenge = (challengeId: string) => Promise<void>;

export const ChallengeContext = createContext<PresentChallenge | null>(null);

export function usePresentChallenge(): PresentChallenge {
  const present = use(ChallengeContext);
  if (!present) throw new Error('usePresentChallenge is only available inside PaymentsProvider');
  return present;
}
