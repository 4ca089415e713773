import { triesBackupCard, type FirstChargeOutcome } from '@meterline/domain';
import {
  findChargeByKey,
  insertPendingCharge,
  openInvoiceCharges,
  recordChargeIntent,
  type ChargeRow,
} from '../../repositories/charges.ts';
import { lockInvoice } from '../../repositories/invoices.ts';
import { getBackupPaymentMethod } from '../../repositories/payment-methods.ts';
import { declinedByCard } from '../charges/card-answers.ts';
import type { PaymentDeps } from '../charges/payment-deps.ts';
import type { PaymentIntentState } from '../../adapters/payment-gateway.ts';
import { settleChargeIn } from '../charges/settle-charge.ts';
import { newId } from '../../lib/ids.ts';

/** The default card's charge of an automatic attempt, and how it ended. */
export interface FirstCharge {
  chargeId: string;
  key: string;
  /** The organization's card it charged (null for none on file any more). */
  paymentMethodId: string | null;
  outcome: PaymentIntentState;
  /** Settled by an earlier run of this attempt (its outcome is the stored one). */
  ended: boolean;
}

export type BackupAttempt =
  | { status: 'not_tried' }
  /** Another payment of the invoice (or this backup charge, by another run) is under way: stand back. */
  | { status: 'in_flight' }
  | {
      status: 'tried';
      chargeId: string;
      paymentMethodId: string | null;
      outcome: PaymentIntentState;
      /** Settled by an earlier run of this attempt: nothing is sent to the provider again. */
      ended: boolean;
    };

/** The charge key of an attempt's backup charge: one per attempt, like the default card's. */
export function backupChargeKey(firstKey: string): string {
  return `${firstKey}:backup`;
}

export function firstChargeOutcome(outcome: PaymentIntentState): FirstChargeOutcome {
  if (outcome.status !== 'failed') return outcome.status;
  return declinedByCard(outcome.message) ? 'declined' : 'not_answered_by_card';
}

/**
 * The backup card, tried once in the same automatic attempt when the default card declined (decision
 * 016). The decline is settled first, in its own transaction: the backup is charged only once the
 * default card's charge has certainly ended, so both can never take money for the same attempt (and
 * should the provider ever report the first one paid after all, settle-charge refunds the second
 * success). The backup charge is written before the provider call under the attempt's backup key, and
 * names the declined charge (unique in the database): a run repeated after a crash finds it and reads its
 * outcome instead of sending it again.
 */
export async function chargeBackupCard(
  deps: PaymentDeps,
  invoice: { id: string; organization_id: string; amount_due_cents: number; number: string },
  first: FirstCharge,
  at: Date,
): Promise<BackupAttempt> {
  const { db, gateway, clock } = deps;
  const applies = (backupCardId: string | null) =>
    triesBackupCard({
      trigger: 'automatic',
      firstOutcome: firstChargeOutcome(first.outcome),
      backupCardId,
      chargedCardId: first.paymentMethodId,
    });
  if (!applies((await getBackupPaymentMethod(db, invoice.organization_id))?.id ?? null)) {
    return { status: 'not_tried' };
  }
  if (!first.ended) {
    const settled = await db
      .transaction()
      .execute((trx) => settleChargeIn(trx, first.chargeId, first.outcome, at, clock.now()));
    if (settled.status !== 'failed') return { status: 'not_tried' };
  }

  const key = backupChargeKey(first.key);
  const prepared = await db.transaction().execute(async (trx) => {
    const current = await lockInvoice(trx, invoice.id);
    if (!current || current.status !== 'open') return { status: 'not_tried' } as const;
    const earlier = await findChargeByKey(trx, key);
    if (earlier) return endedOrInFlight(earlier);
    if ((await openInvoiceCharges(trx, invoice.id, '')).length > 0) {
      return { status: 'in_flight' } as const;
    }
    // Read again under the invoice's lock: the mark may have moved since.
    const backup = await getBackupPaymentMethod(trx, invoice.organization_id);
    if (!backup || !applies(backup.id)) return { status: 'not_tried' } as const;
    const charge = await insertPendingCharge(trx, {
      id: newId('ch'),
      organizationId: invoice.organization_id,
      invoiceId: invoice.id,
      purpose: 'invoice',
      amountCents: current.amount_due_cents,
      paymentMethodId: backup.id,
      providerPaymentMethodId: backup.provider_payment_method_id,
      idempotencyKey: key,
      createdBy: null,
      profileUpdate: null,
      at,
      attemptedAt: clock.now(),
      backupOfChargeId: first.chargeId,
    });
    if (!charge) return { status: 'in_flight' } as const;
    return { status: 'charge', charge } as const;
  });
  if (prepared.status !== 'charge') return prepared;

  const { charge } = prepared;
  const outcome = await gateway.charge({
    amountCents: charge.amount_cents,
    providerPaymentMethodId: charge.provider_payment_method_id ?? '',
    idempotencyKey: key,
    description: `Invoice ${invoice.number} (backup card)`,
    offSession: true,
    metadata: { organization_id: invoice.organization_id, purpose: 'invoice' },
    recordIntent: (providerRef) => recordChargeIntent(db, charge.id, providerRef),
  });
  return {
    status: 'tried',
    chargeId: charge.id,
    paymentMethodId: charge.payment_method_id,
    outcome,
    ended: false,
  };
}

/** This attempt's backup charge, made by an earlier run: its settled outcome, or still under way. */
function endedOrInFlight(charge: ChargeRow): BackupAttempt {
  if (charge.status !== 'succeeded' && charge.status !== 'failed') return { status: 'in_flight' };
  const outcome: PaymentIntentState =
    charge.status === 'succeeded'
      ? { status: 'succeeded', providerRef: charge.provider_ref ?? '' }
      : {
          status: 'failed',
          providerRef: charge.provider_ref,
          message: charge.failure_message ?? 'Payment failed.',
        };
  return {
    status: 'tried',
    chargeId: charge.id,
    paymentMethodId: charge.payment_method_id,
    outcome,
    ended: true,
  };
}
