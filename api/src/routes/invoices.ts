import { contentDisposition, csvFileName } from '../services/exports/csv-export.ts';
import { INVOICE_CSV_COLUMNS, invoicesCsv } from '../services/exports/invoices-csv.ts';
import {
  canPayNow,
  errorResponseSchema,
  invoiceSeenBy,
  invoiceDetailSchema,
  invoiceListQuerySchema,
  invoiceListSchema,
  invoiceParamsSchema,
  orgParamsSchema,
  paymentLinkSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EXPORT_RATE_LIMIT } from '../plugins/rate-limits.ts';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import type { ResponseHeader } from '../openapi.ts';
import { HttpError } from '../plugins/errors.ts';
import { callerMay, requireOrg } from '../plugins/request-context.ts';
import { countInvoices, findInvoice, listInvoices } from '../repositories/invoices.ts';
import { organizationName } from '../repositories/organizations.ts';
import { payLinkSecret, signedPayLinkPath } from '../repositories/pay-links.ts';
import { renderInvoicePdf, type Seller } from '../services/invoices/render-invoice-pdf.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const readSubscriptions = {
  access: { kind: 'org', permission: 'billing_read:subscriptions' },
} as const;

export const INVOICE_NOT_FOUND = 'Invoice not found';

const invoiceRoutes: FastifyPluginAsyncZod<{ db: Db; seller: Seller; publicUrl: string }> = async (
  app,
  { db, seller, publicUrl },
) => {
  const list = '/platform/organizations/:slug/billing/invoices';
  const totalCount: Record<string, Record<string, ResponseHeader>> = {
    200: {
      'X-Total-Count': {
        description: 'How many invoices the organization has',
        type: 'integer',
        minimum: 0,
        maximum: 2_147_483_647,
      },
    },
  };

  // Declared before the GET, which would otherwise get fastify's own HEAD, undocumented.
  app.head(
    list,
    {
      config: { ...readSubscriptions, swagger: { exposeHeadRoute: true } },
      schema: {
        tags: ['invoices'],
        summary: 'The number of past invoices, in X-Total-Count, without the page',
        params: orgParamsSchema,
        querystring: invoiceListQuerySchema,
        response: { 200: z.null().describe('No body'), ...errors },
        responseHeaders: totalCount,
      },
    },
    async (request, reply) => {
      const { organizationId } = requireOrg(request);
      const total = await countInvoices(db, organizationId);
      reply.header('x-total-count', String(total));
      reply.header('access-control-expose-headers', 'X-Total-Count');
      return reply.send(null);
    },
  );

  app.get(
    list,
    {
      config: readSubscriptions,
      schema: {
        tags: ['invoices'],
        summary: 'Past invoices, newest first; the total count is in X-Total-Count (also on HEAD)',
        params: orgParamsSchema,
        querystring: invoiceListQuerySchema,
        response: { 200: invoiceListSchema, ...errors },
        responseHeaders: totalCount,
      },
    },
    async (request, reply) => {
      const { organizationId, slug } = requireOrg(request);
      const { offset, limit } = request.query;
      const { total, invoices } = await listInvoices(db, organizationId, slug, offset, limit);
      reply.header('x-total-count', String(total));
      reply.header('access-control-expose-headers', 'X-Total-Count');
      return invoices;
    },
  );

  app.get(
    '/platform/organizations/:slug/billing/invoices/:invoiceId',
    {
      config: readSubscriptions,
      schema: {
        tags: ['invoices'],
        summary: 'One invoice with its lines; invoice_pdf is the address of its PDF',
        params: invoiceParamsSchema,
        response: { 200: invoiceDetailSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId, slug } = requireOrg(request);
      const invoice = await findInvoice(db, organizationId, slug, request.params.invoiceId);
      if (!invoice) throw new HttpError(404, INVOICE_NOT_FOUND);
      return invoiceSeenBy(invoice, callerMay(request));
    },
  );

  app.get(
    '/platform/organizations/:slug/billing/invoices/export',
    {
      config: { ...readSubscriptions, rateLimit: EXPORT_RATE_LIMIT },
      schema: {
        tags: ['invoices'],
        summary: 'Every invoice of the organization as CSV (newest first)',
        description:
          'RFC 4180, UTF-8 with a byte-order mark and a header row: ' +
          `${INVOICE_CSV_COLUMNS.join(', ')}. Amounts are US dollars with two decimals; a cell a ` +
          'spreadsheet would run as a formula starts with an apostrophe. Streamed a batch at a time.',
        params: orgParamsSchema,
        produces: ['text/csv'],
        response: { 200: z.any().describe('text/csv'), ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId, slug } = requireOrg(request);
      const name = csvFileName(slug, 'invoices', new Date().toISOString().slice(0, 10));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', contentDisposition(name))
        .header('cache-control', 'private, no-store')
        .send(invoicesCsv(db, organizationId));
    },
  );

  app.get(
    '/platform/organizations/:slug/billing/invoices/:invoiceId/pdf',
    {
      config: readSubscriptions,
      schema: {
        tags: ['invoices'],
        summary: 'The invoice rendered as a PDF',
        params: invoiceParamsSchema,
        produces: ['application/pdf'],
        response: { 200: z.any().describe('application/pdf'), ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId, slug } = requireOrg(request);
      const invoice = await findInvoice(db, organizationId, slug, request.params.invoiceId);
      if (!invoice) throw new HttpError(404, INVOICE_NOT_FOUND);
      const may = callerMay(request);
      // The signed link, as the billing emails carry it, only for a caller who may pay (as the payment-link
      // route below): another member's copy says when it is due, and not how to pay it.
      const payUrl =
        canPayNow(invoice) && may('billing_write:subscriptions')
          ? `${publicUrl}${signedPayLinkPath(await payLinkSecret(db), invoice.id, slug)}`
          : null;
      const pdf = await renderInvoicePdf(
        invoiceSeenBy(invoice, may),
        await organizationName(db, organizationId),
        seller,
        { payUrl },
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="${invoice.number}.pdf"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );

  app.get(
    '/platform/organizations/:slug/billing/invoices/:invoiceId/payment-link',
    {
      config: { access: { kind: 'org', permission: 'billing_write:subscriptions' } },
      schema: {
        tags: ['invoices'],
        summary: 'Where to pay an outstanding invoice: the hosted payment page',
        params: invoiceParamsSchema,
        response: { 200: paymentLinkSchema, 409: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId, slug } = requireOrg(request);
      const invoice = await findInvoice(db, organizationId, slug, request.params.invoiceId);
      if (!invoice) throw new HttpError(404, INVOICE_NOT_FOUND);
      if (!canPayNow(invoice)) throw new HttpError(409, 'This invoice has nothing left to pay');
      return { redirectUrl: `/pay/invoices/${invoice.id}?org=${encodeURIComponent(slug)}` };
    },
  );
};

export default invoiceRoutes;
