import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import { invoiceDetailSchema } from '../schemas/invoice-detail.ts';
import { paymentMethodIdSchema } from './contract.ts';

/**
 * The signed payment link of an invoice: the link the billing emails carry. Its key
 * is an HMAC of the invoice's id under the server's secret, so the link alone lets whoever holds it see
 * what is due and pay it with a new card, nothing more: no saved card, no other invoice, no organization.
 */

/** The key: HMAC-SHA256, 32 bytes in base64url without padding. */
export const PAY_LINK_KEY_LENGTH = 43;
export const PAY_LINK_NOT_VALID = 'This payment link is not valid';

export const payLinkKeySchema = z
  .string({ error: 'key is required' })
  .check(z.length(PAY_LINK_KEY_LENGTH, 'key is not valid'))
  .check(z.regex(/^[A-Za-z0-9_-]+$/, 'key is not valid'));

export const payLinkParamsSchema = z.object({
  invoiceId: z
    .string()
    .check(z.minLength(1, 'Invoice ID is required'))
    .check(z.maxLength(64, 'Invoice ID is not valid'))
    .check(z.regex(/^in_[a-z0-9]+$/, 'Invoice ID is not valid')),
});

export const payLinkQuerySchema = z.object({
  key: documented(payLinkKeySchema, {
    description: "The link's key, as the billing emails carry it",
  }),
});

/**
 * What the link shows: the invoice as its PDF shows it, less the billing email and the card that paid
 * it (the holder of a link is not necessarily a member).
 */
export const payLinkInvoiceSchema = documented(
  z.object({
    organization_name: z.string(),
    invoice: invoiceDetailSchema,
  }),
  { id: 'PayLinkInvoice' },
);
export type PayLinkInvoice = z.infer<typeof payLinkInvoiceSchema>;

export const payLinkPaymentBodySchema = documented(
  z.object({
    payment_method_id: documented(paymentMethodIdSchema, {
      description:
        "The card typed on the page, as the provider's payment method; never a saved card",
    }),
  }),
  { id: 'PayLinkPaymentRequest' },
);
export type PayLinkPaymentBody = z.infer<typeof payLinkPaymentBodySchema>;

/** The most payments one link may start in an hour: a few for a person, too few to test cards. */
export const PAY_LINK_ATTEMPTS_PER_HOUR = 10;
export const PAY_LINK_TOO_MANY_ATTEMPTS =
  'Too many payment attempts for this invoice. Please try again in an hour.';

/** Where the link points: the hosted invoice page, with the key. */
export function payLinkPath(invoiceId: string, slug: string, key: string): string {
  return `/pay/invoices/${encodeURIComponent(invoiceId)}?org=${encodeURIComponent(slug)}&key=${encodeURIComponent(key)}`;
}
