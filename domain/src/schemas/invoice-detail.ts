import { z } from 'zod';
import { invoiceSchema, upcomingInvoiceLineSchema } from '../billing/schemas.ts';

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
    lines: z.array(upcomingInvoiceLineSchema),
    credit_applied: z.number().int().describe('Credit balance applied, in cents'),
    amount_paid: z.number().int(),
    billing_name: z.string().nullable(),
    billing_email: z.string().nullable(),
    billing_address: invoiceAddressSchema.nullable(),
    tax_id: z.object({ type: z.string(), value: z.string(), country: z.string() }).nullable(),
    finalized_at: z.number().int(),
    paid_at: z.number().int().nullable(),
  })
  .meta({ id: 'InvoiceDetail' });
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

export const invoiceListQuerySchema = z.object({
  offset: z.coerce.number().int().min(0, 'offset must be 0 or more').default(0),
  limit: z.coerce
    .number()
    .int()
    .min(1, 'limit must be between 1 and 100')
    .max(100, 'limit must be between 1 and 100')
    .default(5),
});

export const invoiceParamsSchema = z.object({
  slug: z.string().min(1, 'Slug is required'),
  invoiceId: z
    .string()
    .min(1, 'Invoice ID is required')
    .max(64)
    .regex(/^in_[a-z0-9]+$/, 'Invoice ID is not valid'),
});
