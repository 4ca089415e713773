import type { PresentChallenge } from '../challenge-context';
import type { PaymentPort } from '../payment-port';
import { confirmSimulatedPayment } from './simulator-api';
import { SimulatorCardFields, SimulatorCardScope } from './simulator-card-fields';

/**
 * The built-in adapter (decision 004): the card form, the confirmations and the challenge are the
 * simulator's, with the provider's test-mode semantics and test cards.
 */
export function createSimulatorPort(presentChallenge: PresentChallenge): PaymentPort {
  return {
    provider: 'simulator',
    CardScope: SimulatorCardScope,
    CardFields: SimulatorCardFields,
    async confirmPayment(clientSecret) {
      const confirmation = await confirmSimulatedPayment(clientSecret);
      if (confirmation.status !== 'requires_action') return confirmation.status;
      await presentChallenge(confirmation.challenge.id);
      return 'succeeded';
    },
  };
}
