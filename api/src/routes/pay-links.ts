import {
  PAY_LINK_NOT_VALID,
  errorResponseSchema,
  idempotencyHeadersSchema,
  invoicePaymentResponseSchema,
  payLinkInvoiceSchema,
  payLinkParamsSchema,
  payLinkPaymentBodySchema,
  payLinkQuerySchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../db/database.ts';
import { auditContextOf } from '../plugins/audit-context.ts';
import { HttpError } from '../plugins/errors.ts';
import { perUserRateLimit } from '../plugins/rate-limits.ts';
import { findInvoice, findInvoiceWithOrganization } from '../repositories/invoices.ts';
import { payInvoice, type PayInvoiceDeps } from '../services/invoices/pay-invoice.ts';
import { payLinkMatches, payLinkSecret } from '../repositories/pay-links.ts';

/**
 * The invoice's signed payment link, the Pay Now link of the billing emails: whoever
 * holds it sees what the invoice asks and pays it with a new card, with no session. A wrong key is the
 * same 404 as an invoice that does not exist. A member with billing write signed in is offered the
 * organization's saved cards by the member's own calls instead; this link never reaches them.
 */
const payLinkRoutes: FastifyPluginAsyncZod<PayInvoiceDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/platform/pay/invoices/:invoiceId',
    {
      config: { access: { kind: 'public' }, rateLimit: perUserRateLimit(120, '1 minute') },
      schema: {
        tags: ['invoices'],
        summary:
          'An invoice through its signed payment link: what is due, for whoever holds the link',
        description:
          "The key is the link's own (the billing emails carry it); a wrong key answers 404 like an " +
          'invoice that does not exist. The billing email and the card that paid are left out. 429 ' +
          'beyond 120 a minute per address.',
        params: payLinkParamsSchema,
        querystring: payLinkQuerySchema,
        response: {
          200: payLinkInvoiceSchema,
          400: errorResponseSchema,
          404: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const { invoice, organization } = await linkedInvoice(
        db,
        request.params.invoiceId,
        request.query.key,
      );
      const detail = await findInvoice(db, organization.id, organization.slug, invoice.id);
      if (!detail) throw new HttpError(404, PAY_LINK_NOT_VALID);
      return {
        organization_name: organization.name,
        // Not every holder of the link is a member: no billing email, no card, nothing of what the
        // provider said afterwards (refunds, disputes).
        invoice: {
          ...detail,
          billing_email: null,
          paid_with: null,
          amount_refunded: 0,
          disputes: [],
        },
      };
    },
  );

  app.post(
    '/platform/pay/invoices/:invoiceId/pay',
    {
      config: {
        access: { kind: 'public' },
        // Card testing is many attempts: a few a minute per address, and a few an hour per invoice.
        rateLimit: perUserRateLimit(20, '1 minute'),
      },
      schema: {
        tags: ['invoices'],
        summary:
          'Pay an invoice through its signed payment link, with a new card (never a saved one)',
        description:
          'payment_method_id is the card typed on the page, tokenized by the browser at the provider; ' +
          "it is charged, not saved. One of the organization's saved cards is not found (404): only a " +
          'signed-in member with billing write pays with those (POST …/invoices/{id}/pay). The answers ' +
          'are those of that call: `succeeded`, `requires_action` (3-D Secure, then the same request ' +
          'with the same Idempotency-Key), `processing`; 402 for a decline; 409 when nothing is left ' +
          'to pay. 429 beyond 20 a minute per address, or 10 attempts an hour through one link.',
        params: payLinkParamsSchema,
        querystring: payLinkQuerySchema,
        headers: idempotencyHeadersSchema,
        body: payLinkPaymentBodySchema,
        response: {
          200: invoicePaymentResponseSchema,
          400: errorResponseSchema,
          402: errorResponseSchema,
          403: errorResponseSchema,
          404: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) => {
      const { invoice } = await linkedInvoice(db, request.params.invoiceId, request.query.key);
      return payInvoice(deps, {
        organizationId: invoice.organization_id,
        invoiceId: invoice.id,
        idempotencyKey: request.headers['idempotency-key'],
        paymentMethodId: request.body.payment_method_id,
        userId: null,
        // The payer is whoever holds the link: the audit log names the link, and where it came from.
        audit: {
          ...auditContextOf(request),
          actor: { type: 'pay_link', id: invoice.id, email: null },
        },
      });
    },
  );
};

/** The invoice a link names, once its key is checked; 404 for a wrong key or an unknown invoice. */
async function linkedInvoice(db: Db, invoiceId: string, key: string) {
  if (!payLinkMatches(await payLinkSecret(db), invoiceId, key)) {
    throw new HttpError(404, PAY_LINK_NOT_VALID);
  }
  const row = await findInvoiceWithOrganization(db, invoiceId);
  if (!row) throw new HttpError(404, PAY_LINK_NOT_VALID);
  return {
    invoice: { id: row.id, organization_id: row.organization_id },
    organization: { id: row.organization_id, slug: row.slug, name: row.name },
  };
}

export default payLinkRoutes;
