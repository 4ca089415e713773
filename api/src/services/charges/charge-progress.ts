import { Failure } from '../../lib/failure.ts';
import { recordChargeIntent, type ChargeRow } from '../../repositories/charges.ts';
import type { PaymentDeps } from './payment-deps.ts';
import type { PaymentIntentState } from '../../adapters/payment-gateway.ts';
import { settleCharge } from './settle-charge.ts';

export type ChargeDeps = PaymentDeps;

export const PAYMENT_REFUNDED =
  'This invoice no longer needed paying when your payment completed: the payment was refunded.';

/** Where a customer's charge stands after a request; a failure is a 402 with the provider's message. */
export type ChargeProgress =
  | { status: 'succeeded' }
  | { status: 'requires_action'; clientSecret: string | null }
  | { status: 'processing' };

/**
 * The provider call and the settlement: the step a crash or a timeout leaves to the next attempt. The call
 * carries the charge's key, so a repeat is answered from the provider's record and charges nothing more.
 * The caller's lease on the charge (`attempted_at`, wall clock) is written just before the call.
 */
export async function chargeAndSettle(
  deps: ChargeDeps,
  charge: ChargeRow,
): Promise<ChargeProgress> {
  await deps.db
    .updateTable('charges')
    .set({ attempted_at: deps.clock.now() })
    .where('id', '=', charge.id)
    .where('status', '=', 'pending')
    .execute();
  const outcome = await deps.gateway.charge({
    amountCents: charge.amount_cents,
    providerPaymentMethodId: charge.provider_payment_method_id ?? '',
    idempotencyKey: charge.idempotency_key,
    description:
      charge.purpose === 'top_up'
        ? 'Credit top-up'
        : charge.purpose === 'plan_change'
          ? 'Plan change'
          : `Invoice ${charge.invoice_id ?? ''}`,
    offSession: false,
    metadata: { organization_id: charge.organization_id, purpose: charge.purpose },
    // A customer's charge: the card must be theirs (saved for them, or just typed by them).
    organizationId: charge.organization_id,
    recordIntent: (providerRef) => recordChargeIntent(deps.db, charge.id, providerRef),
  });
  return settleAndReport(deps, charge, outcome);
}

/** A request repeated with the key of an existing charge: answer where it stands, finishing it if needed. */
export async function resumeCharge(deps: ChargeDeps, charge: ChargeRow): Promise<ChargeProgress> {
  switch (charge.status) {
    case 'succeeded':
      return report(charge, null);
    case 'failed':
      throw new Failure('payment_failed', charge.failure_message ?? 'Payment failed.');
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
  const settled = await settleCharge(deps, charge.id, outcome, deps.clock.now());
  return report(settled, outcome.status === 'requires_action' ? outcome.clientSecret : null);
}

function report(settled: ChargeRow, clientSecret: string | null): ChargeProgress {
  switch (settled.status) {
    case 'succeeded':
      // The money came after the invoice stopped needing it: it went back, and the payer is told so.
      if (settled.refund_status !== null) throw new Failure('conflict', PAYMENT_REFUNDED);
      return { status: 'succeeded' };
    case 'failed':
      throw new Failure('payment_failed', settled.failure_message ?? 'Payment failed.');
    case 'requires_action':
      return { status: 'requires_action', clientSecret };
    case 'pending':
      return { status: 'processing' };
  }
}
