import {
  errorResponseSchema,
  normalizeTaxId,
  orgParamsSchema,
  taxIdResponseSchema,
  taxIdSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { auditContextOf } from '../plugins/audit-context.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { recordAudit } from '../repositories/record-audit.ts';
import { deleteTaxId, getTaxId, saveTaxId } from '../repositories/customers.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

// Loose: the other headers (cookie, CSRF token) must stay on the request.
const versionHeadersSchema = z.looseObject({
  version: z
    .enum(['1', '2'])
    .optional()
    .describe('API version; the web app sends 2. Both answer {"tax_id": null}.'),
});

/** An organization's one tax ID, a kind of the catalogue that its country offers. */
const taxIdRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (app, { db, clock }) => {
  const url = '/platform/organizations/:slug/tax-ids';
  const target = (organizationId: string) => ({ type: 'tax_id' as const, id: organizationId });

  app.get(
    url,
    {
      config: { access: { kind: 'org', permission: 'billing_read:tax_ids' } },
      schema: {
        tags: ['customer'],
        summary: 'The tax ID, or null',
        params: orgParamsSchema,
        response: { 200: taxIdResponseSchema, ...errors },
      },
    },
    async (request) => ({ tax_id: await getTaxId(db, requireOrg(request).organizationId) }),
  );

  app.put(
    url,
    {
      config: { access: { kind: 'org', permission: 'billing_write:customer' } },
      schema: {
        tags: ['customer'],
        summary: 'Set the tax ID, replacing the one before',
        description:
          'The type must be a catalogue kind offered for the country (EU VAT kinds share eu_vat). When ' +
          'the kind has a VAT prefix and the value lacks it, the prefix is added. The answer is what was stored.',
        params: orgParamsSchema,
        body: taxIdSchema,
        response: { 200: taxIdResponseSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      const taxId = normalizeTaxId(request.body);
      return db.transaction().execute(async (trx) => {
        const before = await getTaxId(trx, organizationId);
        await saveTaxId(trx, organizationId, taxId);
        const after = await getTaxId(trx, organizationId);
        if (JSON.stringify(before) !== JSON.stringify(after)) {
          await recordAudit(trx, auditContextOf(request), {
            organizationId,
            action: 'tax_id.set',
            target: target(organizationId),
            before: { tax_id: before },
            after: { tax_id: after },
            at: clock.now(),
          });
        }
        return { tax_id: after };
      });
    },
  );

  app.delete(
    url,
    {
      config: { access: { kind: 'org', permission: 'billing_write:customer' } },
      schema: {
        tags: ['customer'],
        summary: 'Clear the tax ID',
        params: orgParamsSchema,
        headers: versionHeadersSchema,
        response: { 200: taxIdResponseSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      await db.transaction().execute(async (trx) => {
        const before = await getTaxId(trx, organizationId);
        await deleteTaxId(trx, organizationId);
        if (!before) return;
        await recordAudit(trx, auditContextOf(request), {
          organizationId,
          action: 'tax_id.removed',
          target: target(organizationId),
          before: { tax_id: before },
          after: { tax_id: null },
          at: clock.now(),
        });
      });
      return { tax_id: null };
    },
  );
};

export default taxIdRoutes;
