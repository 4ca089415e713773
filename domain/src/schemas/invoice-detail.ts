import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { invoiceSchema, upcomingInvoiceLineSchema } from '../billing/schemas.ts';
import { slugSchema } from './common.ts';

export const invoiceAddressSchema = z.object({
  line1: z.string(),
  line2: z.nullable(z.string()),
  city: z.string(),
  state: z.nullable(z.string()),
  postal_code: z.string(),
  country: z.string(),
});

export const invoiceDetailSchema = documented(
  z.extend(invoiceSchema, {
    lines: z.array(
      z.extend(upcomingInvoiceLineSchema, {
        quantity: documented(z.nullable(upcomingInvoiceLineSchema.shape.quantity), {
          description: 'As on the upcoming invoice; null on lines recorded before it was kept',
        }),
        unit_price: documented(z.nullable(upcomingInvoiceLineSchema.shape.unit_price), {
          description: 'As on the upcoming invoice; null on lines recorded before it was kept',
        }),
      }),
    ),
    credit_applied: documented(z.number().check(z.int()), {
      description: 'Credit balance applied, in cents',
    }),
    amount_paid: z.number().check(z.int()),
    credited_to_balance: documented(z.number().check(z.int()), {
      description:
        "Cents this invoice added to the organization's credit balance: a plan change's invoice " +
        'whose lines sum below zero (its amount due is then 0); 0 otherwise',
    }),
    billing_name: z.nullable(z.string()),
    billing_email: z.nullable(z.string()),
    billing_address: z.nullable(invoiceAddressSchema),
    tax_id: z.nullable(z.object({ type: z.string(), value: z.string(), country: z.string() })),
    finalized_at: z.number().check(z.int()),
    paid_at: z.nullable(z.number().check(z.int())),
    paid_with: documented(z.nullable(z.object({ brand: z.string(), last4: z.string() })), {
      description:
        'The card the amount paid was charged to (its latest successful charge); null when nothing ' +
        'was charged to a card, or the card is no longer known',
    }),
    amount_refunded: documented(z.number().check(z.int()), {
      description:
        'Cents of the amount paid that the card provider refunded since (a refund made in its ' +
        'dashboard); 0 when none',
    }),
    disputes: documented(
      z.array(
        z.object({
          id: z.string(),
          /** Cents. */
          amount: z.number().check(z.int()),
          reason: z.string(),
          /** The provider's status: needs_response, under_review, won, lost, … */
          status: z.string(),
          opened_at: z.number().check(z.int()),
          closed_at: z.nullable(z.number().check(z.int())),
        }),
      ),
      {
        description:
          "Disputes (chargebacks) of the invoice's payment, as the card provider reports them; " +
          'oldest first',
      },
    ),
  }),
  { id: 'InvoiceDetail' },
);
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

/**
 * The largest page offset: far beyond any organization's invoices, and small enough that offset + limit
 * stays within PostgreSQL's integer (3e9 overflowed it and answered 500).
 */
export const MAX_INVOICE_OFFSET = 1_000_000_000;

export const invoiceListQuerySchema = z.object({
  offset: z._default(
    z.coerce
      .number()
      .check(z.int('offset must be a whole number'))
      .check(z.gte(0, `offset must be between 0 and ${MAX_INVOICE_OFFSET}`))
      .check(z.lte(MAX_INVOICE_OFFSET, `offset must be between 0 and ${MAX_INVOICE_OFFSET}`)),
    0,
  ),
  limit: z._default(
    z.coerce
      .number()
      .check(z.int('limit must be a whole number'))
      .check(z.gte(1, 'limit must be between 1 and 100'))
      .check(z.lte(100, 'limit must be between 1 and 100')),
    5,
  ),
});

export const invoiceParamsSchema = z.object({
  slug: slugSchema,
  invoiceId: z
    .string()
    .check(z.minLength(1, 'Invoice ID is required'))
    .check(z.maxLength(64, 'Invoice ID is not valid'))
    .check(z.regex(/^in_[a-z0-9]+$/, 'Invoice ID is not valid')),
});
