import {
  invoicePaymentResponseSchema,
  payLinkPaymentBodySchema,
  type InvoicePaymentBody,
  type InvoicePaymentResponse,
} from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';
import { runInvoicePayment, type PayInvoiceRequest } from './pay-invoice-mutation';

/**
 * POST /platform/pay/invoices/{id}/pay?key= {payment_method_id} with an `Idempotency-Key`: pays the
 * invoice through its signed link with the card typed on the page (never a saved card), no session.
 */
export function payInvoiceByLink(
  invoiceId: string,
  key: string,
  body: InvoicePaymentBody,
  idempotencyKey: string,
): Promise<InvoicePaymentResponse> {
  const parsed = payLinkPaymentBodySchema.safeParse(body);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Invalid payment');
  return apiFetch(
    `/platform/pay/invoices/${segment(invoiceId)}/pay?key=${encodeURIComponent(key)}`,
    invoicePaymentResponseSchema,
    { method: 'POST', body: parsed.data, headers: { 'Idempotency-Key': idempotencyKey } },
  );
}

/** The link's whole payment, as the member's (3-D Secure included); invalidation.ts refreshes after. */
export function usePayInvoiceByLinkMutation(invoiceId: string, key: string) {
  return useMutation({
    mutationKey: mutationKeys.payInvoiceByLink,
    mutationFn: (request: PayInvoiceRequest) =>
      runInvoicePayment(request, (body, idempotencyKey) =>
        payInvoiceByLink(invoiceId, key, body, idempotencyKey),
      ),
  });
}
