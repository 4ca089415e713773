import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import { paymentMethodIdSchema } from './contract.ts';

/**
 * The backup card (decision 016): one card other than the default that the billing
 * engine charges once, in the same attempt, when the default card declines an automatic collection.
 */

export const BACKUP_CARD_IS_DEFAULT_MESSAGE =
  'The default card cannot also be the backup card: choose another card as the backup';

/** Why a card cannot be marked as the backup, or null when it can. */
export function backupCardRefusal(card: { is_default: boolean }): string | null {
  return card.is_default ? BACKUP_CARD_IS_DEFAULT_MESSAGE : null;
}

/**
 * How the default card's charge of an attempt ended, as far as the backup is concerned. `declined`: the
 * card answered no (a decline, insufficient funds, an expired or unknown card, authentication required
 * off session). Anything else is not a decline: paid, still processing or waiting for 3-D Secure, an
 * outcome we do not know (a timeout, a lost answer), a payment cancelled by us, or no card to charge.
 */
export type FirstChargeOutcome =
  | 'succeeded'
  | 'declined'
  | 'processing'
  | 'requires_action'
  | 'not_answered_by_card'
  | 'unknown'
  | 'no_card';

/**
 * Whether the backup card is charged after the default card's charge: only by the engine's automatic
 * collection (the customer, on session, chooses the card themselves and sees the decline), only after a
 * definite decline (trying another card while the first charge may still succeed could take the money
 * twice), and only when there is a backup card other than the one that declined.
 */
export function triesBackupCard(input: {
  trigger: 'automatic' | 'pay_now';
  firstOutcome: FirstChargeOutcome;
  backupCardId: string | null;
  chargedCardId: string | null;
}): boolean {
  return (
    input.trigger === 'automatic' &&
    input.firstOutcome === 'declined' &&
    input.backupCardId !== null &&
    input.backupCardId !== input.chargedCardId
  );
}

export const setBackupPaymentMethodBodySchema = documented(
  z.object({
    payment_method_id: paymentMethodIdSchema,
  }),
  { id: 'SetBackupPaymentMethodRequest' },
);
export type SetBackupPaymentMethodBody = z.infer<typeof setBackupPaymentMethodBodySchema>;

export const backupPaymentMethodResponseSchema = documented(
  z.object({
    backupPaymentMethodId: documented(z.nullable(z.string()), {
      description: 'The backup card now; null when the organization has none',
    }),
  }),
  { id: 'BackupPaymentMethod' },
);
export type BackupPaymentMethod = z.infer<typeof backupPaymentMethodResponseSchema>;
