import { useMutation } from '@tanstack/react-query';
import { mutationKeys } from '../../data/invalidation';
import type { PresentChallenge } from '../../payments/challenge-context';
import { paySimulatedInvoice, type SimulatorCard } from '../../payments/simulator/simulator-api';

export interface PayInvoiceRequest {
  card: SimulatorCard;
  /** One per payment attempt: a double click or a retry of it pays once. */
  idempotencyKey: string;
}

/**
 * The hosted page's payment: the simulator charges the card for the invoice, through the 3-D
 * Secure challenge when the card asks for one. A success makes the invoice paid (and may lift an
 * overdue restriction): invalidation.ts refreshes what shows it.
 */
export function usePayInvoiceMutation(
  slug: string,
  invoiceId: string,
  presentChallenge: PresentChallenge,
) {
  return useMutation({
    mutationKey: mutationKeys.payInvoice,
    mutationFn: async ({ card, idempotencyKey }: PayInvoiceRequest) => {
      const result = await paySimulatedInvoice(invoiceId, { org: slug, card }, idempotencyKey);
      if (result.status === 'requires_action') await presentChallenge(result.challenge.id);
    },
  });
}
