import { z } from 'zod';
import { invoiceSchema, upcomingInvoiceLineSchema } from '../billing/schemas.ts';
import { slugSchema } from './common.ts';

export const invoiceAddressSchema = z.object({
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  state: z.string().nullable(),
  postal_code: z.string(),
  country: z.string(),
});

export const invoiceDetailSchema = invoiceSchema
  .extend({
    lines: z.array(
      upcomingInvoiceLineSchema.extend({
        quantity: upcomingInvoiceLineSchema.shape.quantity
          .nullable()
          .describe('As on the upcoming invoice; null on lines recorded before it was kept'),
      }),
    ),
    credit_applied: z.number().int().describe('Credit balance applied, in cents'),
    amount_paid: z.number().int(),
    billing_name: z.string().nullable(),
    billing_email: z.string().nullable(),
    billing_address: invoiceAddressSchema.nullable(),
    tax_id: z.object({ type: z.string(), value: z.string(), country: z.string() }).nullable(),
    finalized_at: z.number().int(),
    paid_at: z.number().int().nullable(),
    paid_with: z
      .object({ brand: z.string(), last4: z.string() })
      .nullable()
      .describe(
        'The card the amount paid was charged to (its latest successful charge); null when nothing ' +
          'was charged to a card, or the card is no longer known',
      ),
  })
  .meta({ id: 'InvoiceDetail' });
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

/**
 * The largest page offset: far beyond any organization's invoices, and small enough that offset + limit
 * stays within PostgreSQL's integer (3e9 overflowed it and answered 500).
 */
export const MAX_INVOICE_OFFSET = 1_000_000_000;

export const invoiceListQuerySchema = z.object({
  offset: z.coerce
    .number()
    .int('offset must be a whole number')
    .min(0, `offset must be between 0 and ${MAX_INVOICE_OFFSET}`)
    .max(MAX_INVOICE_OFFSET, `offset must be between 0 and ${MAX_INVOICE_OFFSET}`)
    .default(0),
  limit: z.coerce
    .number()
    .int('limit must be a whole number')
    .min(1, 'limit must be between 1 and 100')
    .max(100, 'limit must be between 1 and 100')
    .default(5),
});

export const invoiceParamsSchema = z.object({
  slug: slugSchema,
  invoiceId: z
    .string()
    .min(1, 'Invoice ID is required')
    .max(64, 'Invoice ID is not valid')
    .regex(/^in_[a-z0-9]+$/, 'Invoice ID is not valid'),
});
