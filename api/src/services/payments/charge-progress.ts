import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import { HttpError } from '../../plugins/errors.ts';
import type { ChargeRow } from '../../repositories/charges.ts';
import type { PaymentGateway, PaymentIntentState } from './payment-gateway.ts';
import { settleCharge } from './settle-charge.ts';

export interface ChargeDeps {
  db: Db;
  gateway: PaymentGateway;
  clock: Clock;
}

/** Where a customer's charge stands after a request; a failure is a 402 with the provider's message. */
export type ChargeProgress =
  | { status: 'succeeded' }
  | { status: 'requires_action'; clientSecret: string | null }
  | { status: 'processing' };

/**
 * The provider call and the settlement: the step a crash or a timeout leaves to the next attempt. The call
 * carries the charge's key, so a repeat is answered from the provider's record and charges nothing more.
 */
export async function chargeAndSettle(
  deps: ChargeDeps,
  charge: ChargeRow,
): Promise<ChargeProgress> {
  const outcome = await deps.gateway.charge({
    amountCents: charge.amount_cents,
    providerPaymentMethodId: charge.provider_payment_method_id ?? '',
    idempotencyKey: charge.idempotency_key,
    description:
      charge.purpose === 'top_up' ? 'Credit top-up' : `Invoice ${charge.invoice_id ?? ''}`,
    offSession: false,
    metadata: { organization_id: charge.organization_id, purpose: charge.purpose },
    // A customer's charge: the card must be theirs (saved for them, or just typed by them).
    organizationId: charge.organization_id,
  });
  return settleAndReport(deps, charge, outcome);
}

/** A request repeated with the key of an existing charge: answer where it stands, finishing it if needed. */
export async function resumeCharge(deps: ChargeDeps, charge: ChargeRow): Promise<ChargeProgress> {
  switch (charge.status) {
    case 'succeeded':
      return { status: 'succeeded' };
    case 'failed':
      throw new HttpError(402, charge.failure_message ?? 'Payment failed.');
    case 'requires_action':
      return settleAndReport(
        deps,
        charge,
        await deps.gateway.retrievePaymentIntent(charge.provider_ref ?? ''),
      );
    case 'pending':
      // Processing at the provider, or interrupted before or after the provider call.
      if (charge.provider_ref) {
        return settleAndReport(
          deps,
          charge,
          await deps.gateway.retrievePaymentIntent(charge.provider_ref),
        );
      }
      return chargeAndSettle(deps, charge);
  }
}

async function settleAndReport(
  deps: ChargeDeps,
  charge: ChargeRow,
  outcome: PaymentIntentState,
): Promise<ChargeProgress> {
  const settled = await settleCharge(deps.db, charge.id, outcome, deps.clock.now());
  switch (settled.status) {
    case 'succeeded':
      return { status: 'succeeded' };
    case 'failed':
      throw new HttpError(402, settled.failure_message ?? 'Payment failed.');
    case 'requires_action':
      return {
        status: 'requires_action',
        clientSecret: outcome.status === 'requires_action' ? outcome.clientSecret : null,
      };
    case 'pending':
      return { status: 'processing' };
  }
}
