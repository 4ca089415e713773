import {
  invoicePaymentBodySchema,
  invoicePaymentResponseSchema,
  type InvoicePaymentBody,
  type InvoicePaymentResponse,
} from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

export const PAYMENT_NOT_CONFIRMED =
  'Could not confirm payment. Please try again or use a different card.';

/**
 * POST /platform/organizations/{slug}/billing/invoices/{id}/pay {payment_method_id} with an
 * `Idempotency-Key`: charges the card tokenized on the hosted page for the amount due. The same key
 * again answers the first result (after 3-D Secure: settled from the provider) and charges nothing
 * more. Billing write on subscriptions; a decline is 402 with the provider's words.
 */
export async function payInvoice(
  slug: string,
  invoiceId: string,
  body: InvoicePaymentBody,
  idempotencyKey: string,
): Promise<InvoicePaymentResponse> {
  const parsed = invoicePaymentBodySchema.safeParse(body);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Invalid payment');
  return apiFetch(
    `/platform/organizations/${segment(slug)}/billing/invoices/${segment(invoiceId)}/pay`,
    invoicePaymentResponseSchema,
    { method: 'POST', body: parsed.data, headers: { 'Idempotency-Key': idempotencyKey } },
  );
}

export type PayInvoiceOutcome = 'succeeded' | 'processing';

export interface PayInvoiceRequest {
  /** One per payment attempt: a double click or a retry of it pays once. */
  idempotencyKey: string;
  /** The card as the provider's payment method: tokenized once per attempt by the payment port. */
  paymentMethodId: () => Promise<string>;
  /** The payment port's confirmation when the bank wants the customer (3-D Secure). */
  confirmPayment: (paymentIntentSecret: string) => Promise<PayInvoiceOutcome>;
}

/**
 * The hosted page's whole payment: the card tokenized at the provider, the payment, and when the
 * bank asks for the customer, the confirmation in the browser and the same request again, which
 * the server answers from the provider's record of the payment. A success makes the invoice paid
 * (and may lift an overdue restriction): invalidation.ts refreshes what shows it.
 */
export function usePayInvoiceMutation(slug: string, invoiceId: string) {
  return useMutation({
    mutationKey: mutationKeys.payInvoice,
    mutationFn: (request: PayInvoiceRequest) =>
      runInvoicePayment(request, (body, key) => payInvoice(slug, invoiceId, body, key)),
  });
}

/**
 * One payment of an invoice, whoever sends it: the card tokenized, the payment sent, and when the bank
 * wants the customer, the confirmation in the browser and the same request again under the same key.
 */
export async function runInvoicePayment(
  { idempotencyKey, paymentMethodId, confirmPayment }: PayInvoiceRequest,
  send: (body: InvoicePaymentBody, idempotencyKey: string) => Promise<InvoicePaymentResponse>,
): Promise<PayInvoiceOutcome> {
  const body = { payment_method_id: await paymentMethodId() };
  const first = await send(body, idempotencyKey);
  if (first.status !== 'requires_action') return first.status;
  if (!first.payment_intent_secret) throw new Error(PAYMENT_NOT_CONFIRMED);
  await confirmPayment(first.payment_intent_secret);
  const settled = await send(body, idempotencyKey);
  if (settled.status === 'requires_action') throw new Error(PAYMENT_NOT_CONFIRMED);
  return settled.status;
}
